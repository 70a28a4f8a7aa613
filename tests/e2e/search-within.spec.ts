/**
 * Search within: extra terms on top of the main query, kept in the URL as repeated `within`
 * parameters (at most 5, blanks and duplicates dropped), each shown as a removable tag.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  apiSearch,
  FACET_LABELS,
  facetValues,
  headingText,
  openSearch,
  resultsHeading,
  SEARCH_PATH,
  searchUrl,
  shownTotal,
  submitHeaderSearch,
  urlWith,
} from "./helpers";

function withinInput(page: Page) {
  return page.getByRole("searchbox", { name: "Search within" });
}

function withinTags(page: Page) {
  return page.getByRole("list", { name: "Search-within terms" });
}

async function addWithin(page: Page, term: string) {
  await withinInput(page).fill(term);
  await page.getByRole("button", { name: "Add", exact: true }).click();
}

/** A one-word manufacturer among the results: a term that narrows but does not empty them. */
async function narrowingTerm(page: Page, total: number): Promise<{ term: string; atLeast: number }> {
  const values = await facetValues(page, FACET_LABELS.manufacturer);
  const pick = values.find((v) => /^[A-Za-z]+$/.test(v.value) && v.count > 0 && v.count < total);
  if (!pick) throw new Error(`no one-word manufacturer among ${values.map((v) => v.value).join(", ")}`);
  return { term: pick.value.toLowerCase(), atLeast: pick.count };
}

test.describe("search within", () => {
  test("is disabled until there is a real query", async ({ page }, testInfo) => {
    for (const url of [SEARCH_PATH, searchUrl({ q: "*:*" }), "/crib-search"]) {
      await openSearch(page, testInfo, url);
      await expect(withinInput(page), url).toBeDisabled();
      await expect(page.getByRole("button", { name: "Add", exact: true }), url).toBeDisabled();
    }
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    await expect(withinInput(page)).toBeEnabled();
  });

  test("a term narrows the results, shows as a tag and can be removed", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    const total = await shownTotal(page);
    const { term, atLeast } = await narrowingTerm(page, total);

    await addWithin(page, `  ${term}  `);
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["within", term]]));
    await expect(withinTags(page)).toBeVisible();
    await expect(resultsHeading(page)).not.toHaveText(headingText(total, "pump"));
    const narrowed = await shownTotal(page);
    expect(narrowed).toBeGreaterThanOrEqual(atLeast);
    expect(narrowed).toBeLessThan(total);
    await expect(resultsHeading(page)).toHaveText(headingText(narrowed, "pump"));
    await expect(withinTags(page).locator("li.chip > span")).toHaveText([term]);
    await expect(withinInput(page)).toHaveValue("");

    await withinTags(page).getByRole("link", { name: `Remove search-within term ${term}`, exact: true }).click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"]]));
    await expect(resultsHeading(page)).toHaveText(headingText(total, "pump"));
    await expect(withinTags(page)).toHaveCount(0);
  });

  test("blank and duplicate terms are ignored", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    const total = await shownTotal(page);
    const { term } = await narrowingTerm(page, total);

    await addWithin(page, "    ");
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"]]));
    await expect(resultsHeading(page)).toHaveText(headingText(total, "pump"));
    await expect(withinTags(page)).toHaveCount(0);

    await addWithin(page, term);
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["within", term]]));
    await expect(withinTags(page).locator("li.chip")).toHaveCount(1);
    await expect(resultsHeading(page)).not.toHaveText(headingText(total, "pump"));
    const narrowed = await shownTotal(page);
    await addWithin(page, term);
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["within", term]]));
    await expect(withinTags(page).locator("li.chip")).toHaveCount(1);
    await expect(resultsHeading(page)).toHaveText(headingText(narrowed, "pump"));
  });

  test("Clear all removes every term; after 5 terms the input is disabled", async ({ page, request }, testInfo) => {
    // Five words of one pump item, so that every term keeps at least that item in the results.
    const { docs } = await apiSearch(request, { q: "pump", rows: 100 });
    const words = docs
      .map((doc) => [
        ...new Set(
          [doc.item_description_t, doc.attribute_org_notes_t, doc.manufacturer_s]
            .filter((v): v is string => typeof v === "string")
            .join(" ")
            .toLowerCase()
            .split(/\s+/)
            .filter((w) => /^[a-z]{3,}$/.test(w) && !["and", "not", "near"].includes(w)),
        ),
      ])
      .find((list) => list.length >= 5);
    if (!words) throw new Error("no pump item with five words in its description and manufacturer");
    const [four, fifth] = [words.slice(0, 4), words[4]!];

    await openSearch(page, testInfo, searchUrl({ q: "pump", within: four }));
    await expect(withinTags(page).locator("li.chip > span")).toHaveText(four);
    await expect(withinInput(page)).toBeEnabled();

    await addWithin(page, fifth);
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ...[...four, fifth].map((t): [string, string] => ["within", t])]));
    await expect(withinTags(page).locator("li.chip > span")).toHaveText([...four, fifth]);
    expect(await shownTotal(page)).toBeGreaterThan(0);
    await expect(withinInput(page)).toBeDisabled();
    await expect(page.getByRole("button", { name: "Add", exact: true })).toBeDisabled();

    await withinTags(page).getByRole("link", { name: "Clear all", exact: true }).click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"]]));
    await expect(withinTags(page)).toHaveCount(0);
    await expect(withinInput(page)).toBeEnabled();
  });

  test("a new main query clears the search-within terms", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, searchUrl({ q: "pump", within: "seal" }));
    await expect(withinTags(page)).toBeVisible();
    await submitHeaderSearch(page, "valve");
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "valve"]]));
    await expect(resultsHeading(page)).toHaveText(/ results for "valve"$/);
    await expect(withinTags(page)).toHaveCount(0);
  });
});
