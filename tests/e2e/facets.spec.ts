/**
 * The facet panel: include and exclude filters, toggling, multi-select within a facet, Clear All,
 * the order of values, and the search box of facets with more than 5 values. Values and counts are
 * read from the page, never hard-coded.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  excludeLink,
  expectFacetOrder,
  FACET_LABELS,
  facetGroup,
  facetPanel,
  facetValues,
  headingText,
  includeLink,
  isJs,
  openSearch,
  resultsHeading,
  SEARCH_PATH,
  searchUrl,
  selectedFilters,
  shownTotal,
  urlWith,
} from "./helpers";

const CATEGORY = FACET_LABELS.category;
const ORG_CODE = FACET_LABELS.org_code;
const MANUFACTURER = FACET_LABELS.manufacturer;

function selectedWords(page: Page) {
  return selectedFilters(page).locator("li > span");
}

test.describe("facet filters", () => {
  test("the panel is titled Filters and lists the default facets", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, SEARCH_PATH);
    await expect(facetPanel(page).getByRole("heading", { level: 2 })).toHaveText("Filters");
    for (const label of Object.values(FACET_LABELS)) {
      await expect(facetGroup(page, label), label).toHaveCount(1);
    }
    await expect(selectedFilters(page)).toHaveCount(0);
  });

  test("including a value filters to its count and says so in words; the same link again deselects", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, SEARCH_PATH);
    const all = await shownTotal(page);
    const values = await facetValues(page, CATEGORY);
    expect(values.length).toBeGreaterThan(1);
    const { value, count } = values[1]!;

    await includeLink(page, CATEGORY, value).click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["f", `category:${value}`]]));
    await expect(resultsHeading(page)).toHaveText(headingText(count));
    await expect(selectedFilters(page).getByRole("heading", { name: "Selected Filters:", exact: true })).toBeVisible();
    await expect(selectedWords(page)).toHaveText([`${CATEGORY} is ${value}`]);
    const selectedValue = facetGroup(page, CATEGORY).locator("li.is-include");
    await expect(selectedValue.locator(".facet-name")).toHaveText(value);
    await expect(selectedValue).toContainText("(included)");

    await facetGroup(page, CATEGORY).getByRole("link", { name: `Stop including ${CATEGORY}: ${value}`, exact: true }).click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH));
    await expect(resultsHeading(page)).toHaveText(headingText(all));
    await expect(selectedFilters(page)).toHaveCount(0);
  });

  test("excluding a value removes its items and says 'is not'; the same link again deselects", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    const total = await shownTotal(page);
    const values = await facetValues(page, CATEGORY);
    const { value, count } = values[0]!;

    await excludeLink(page, CATEGORY, value).click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["nf", `category:${value}`]]));
    await expect(resultsHeading(page)).toHaveText(headingText(total - count, "pump"));
    await expect(selectedWords(page)).toHaveText([`${CATEGORY} is not ${value}`]);
    await expect(facetGroup(page, CATEGORY).locator("li.is-exclude")).toContainText("(excluded)");

    await facetGroup(page, CATEGORY).getByRole("link", { name: `Stop excluding ${CATEGORY}: ${value}`, exact: true }).click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"]]));
    await expect(resultsHeading(page)).toHaveText(headingText(total, "pump"));
    await expect(selectedFilters(page)).toHaveCount(0);
  });

  test("excluding an included value replaces the include filter", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, SEARCH_PATH);
    const all = await shownTotal(page);
    const { value, count } = (await facetValues(page, CATEGORY))[0]!;

    await includeLink(page, CATEGORY, value).click();
    await expect(resultsHeading(page)).toHaveText(headingText(count));
    await excludeLink(page, CATEGORY, value).click();

    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["nf", `category:${value}`]]));
    await expect(resultsHeading(page)).toHaveText(headingText(all - count));
    await expect(selectedWords(page)).toHaveText([`${CATEGORY} is not ${value}`]);
  });

  test("multi-select: the other org codes stay listed with their counts, and two values OR together", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, SEARCH_PATH);
    const before = await facetValues(page, ORG_CODE);
    expect(before.length).toBeGreaterThan(2);
    const [a, b] = before as [(typeof before)[0], (typeof before)[0]];

    await includeLink(page, ORG_CODE, a.value).click();
    await expect(resultsHeading(page)).toHaveText(headingText(a.count));
    const after = await facetValues(page, ORG_CODE);
    // Every org code is still offered, with the count it would add.
    expect(Object.fromEntries(after.map((v) => [v.value, v.count]))).toEqual(Object.fromEntries(before.map((v) => [v.value, v.count])));
    expect(after[0]).toEqual({ value: a.value, count: a.count, selected: "include" });

    await includeLink(page, ORG_CODE, b.value).click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["f", `org_code:${a.value}`], ["f", `org_code:${b.value}`]]));
    await expect(resultsHeading(page)).toHaveText(headingText(a.count + b.count));
    await expect(selectedWords(page)).toHaveText([`${ORG_CODE} is ${a.value}`, `${ORG_CODE} is ${b.value}`]);
    const both = await facetValues(page, ORG_CODE);
    expect(both.slice(0, 2).map((v) => v.selected)).toEqual(["include", "include"]);
    expect(new Set(both.slice(0, 2).map((v) => v.value))).toEqual(new Set([a.value, b.value]));
  });

  test("Clear All removes every filter and keeps the query", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    const total = await shownTotal(page);
    const org = (await facetValues(page, ORG_CODE))[0]!;
    await includeLink(page, ORG_CODE, org.value).click();
    await expect(resultsHeading(page)).toHaveText(headingText(org.count, "pump"));
    const category = (await facetValues(page, CATEGORY))[0]!;
    await excludeLink(page, CATEGORY, category.value).click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["f", `org_code:${org.value}`], ["nf", `category:${category.value}`]]));
    await expect(selectedWords(page)).toHaveCount(2);

    await selectedFilters(page).getByRole("link", { name: "Clear All", exact: true }).click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"]]));
    await expect(resultsHeading(page)).toHaveText(headingText(total, "pump"));
    await expect(selectedFilters(page)).toHaveCount(0);
    await expect(facetGroup(page, ORG_CODE).locator("li.is-include, li.is-exclude")).toHaveCount(0);
  });

  test("values are ordered: included first, then count descending, then alphabetical", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, SEARCH_PATH);
    const before = await facetValues(page, MANUFACTURER);
    expect(before.length).toBeGreaterThan(5);
    expectFacetOrder(before);
    expectFacetOrder(await facetValues(page, CATEGORY));

    // The value with the smallest count moves to the top once included.
    const last = before[before.length - 1]!;
    await includeLink(page, MANUFACTURER, last.value).click();
    await expect(resultsHeading(page)).toHaveText(headingText(last.count));
    const after = await facetValues(page, MANUFACTURER);
    expect(after[0]).toMatchObject({ value: last.value, selected: "include" });
    expectFacetOrder(after);
  });
});

test.describe("facet search box", () => {
  /** A two-letter term that some but not all values contain, whatever the sample data. */
  function pickTerm(values: string[]): string {
    for (const term of ["an", "er", "on", "in", "ar", "el", "es", "ra", "or", "le"]) {
      const hits = values.filter((v) => v.toLowerCase().includes(term)).length;
      if (hits >= 2 && hits < values.length) return term;
    }
    throw new Error(`no usable search term for ${values.join(", ")}`);
  }

  async function searchFacet(page: Page, js: boolean, label: string, term: string) {
    const group = facetGroup(page, label);
    await group.getByRole("searchbox", { name: `Search ${label} values` }).fill(term);
    if (!js) await group.getByRole("button", { name: "Find", exact: true }).click();
  }

  test("facets with more than 5 values have a search box, the others do not", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    let withBox = 0;
    let withoutBox = 0;
    for (const label of Object.values(FACET_LABELS)) {
      const values = await facetValues(page, label);
      const hasBox = values.length > 5;
      await expect(facetGroup(page, label).getByRole("searchbox"), `${label} (${values.length} values)`).toHaveCount(hasBox ? 1 : 0);
      if (hasBox) withBox++;
      else withoutBox++;
    }
    expect(withBox).toBeGreaterThan(0);
    expect(withoutBox).toBeGreaterThan(0);
  });

  test("typing a term narrows the values, case-insensitively, and says how many are shown", async ({ page }, testInfo) => {
    const js = isJs(testInfo);
    await openSearch(page, testInfo, SEARCH_PATH);
    const group = facetGroup(page, MANUFACTURER);
    // The Find button is for browsers without JavaScript only: with it the list narrows as you type.
    await expect(group.getByRole("button", { name: "Find", exact: true })).toHaveCount(js ? 0 : 1);

    const all = await facetValues(page, MANUFACTURER);
    const categoriesBefore = await facetValues(page, CATEGORY);
    const term = pickTerm(all.map((v) => v.value));
    const expected = all.filter((v) => v.value.toLowerCase().includes(term)).map((v) => v.value);

    await searchFacet(page, js, MANUFACTURER, term.toUpperCase());
    await expect(group.locator("ul.facet-values .facet-name")).toHaveText(expected);
    await expect(group.getByText(`Showing ${expected.length} of ${all.length} options`, { exact: true })).toBeVisible();
    await expect(group.getByRole("searchbox")).toHaveValue(term.toUpperCase());
    // Other facets and the results are untouched.
    expect(await facetValues(page, CATEGORY)).toEqual(categoriesBefore);
    await expect(resultsHeading(page)).toHaveText(/^\d+ results$/);
  });

  test("a term that matches nothing says no options were found", async ({ page }, testInfo) => {
    const js = isJs(testInfo);
    await openSearch(page, testInfo, SEARCH_PATH);
    const term = "zzqxv";
    await searchFacet(page, js, MANUFACTURER, term);
    const group = facetGroup(page, MANUFACTURER);
    await expect(group.getByText(`No options found for "${term}"`, { exact: true })).toBeVisible();
    await expect(group.locator("ul.facet-values")).toHaveCount(0);
    // Include links of the other facets still work.
    await expect(facetGroup(page, CATEGORY).locator("ul.facet-values > li").first()).toBeVisible();
  });
});
