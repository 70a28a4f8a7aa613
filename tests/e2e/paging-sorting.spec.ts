/**
 * Sorting (the Sort By select and the column headers) and paging (page links, Jump To, Show).
 * Orders are checked against the visible cells and against the backend API, never hard-coded.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  apiSearch,
  columnHeader,
  columnTexts,
  expectSortedColumn,
  FACET_LABELS,
  facetValues,
  headingText,
  includeLink,
  isJs,
  NULL_TEXT,
  openSearch,
  resultRows,
  resultsHeading,
  SEARCH_PATH,
  searchUrl,
  shownTotal,
  urlWith,
} from "./helpers";

const PAGE_SIZE = 20;

function pagesNav(page: Page) {
  return page.getByRole("navigation", { name: "Pages" });
}

function pageLink(page: Page, n: number) {
  return pagesNav(page).getByRole("link", { name: `Page ${n}`, exact: true });
}

function stepLink(page: Page, label: "First" | "Previous" | "Next" | "Last") {
  return pagesNav(page).getByRole("link", { name: `${label} page`, exact: true });
}

async function expectCurrentPage(page: Page, n: number) {
  await expect(pagesNav(page).locator('[aria-current="page"]')).toHaveText(String(n));
}

/** Item numbers of a page of results in the backend's order, to compare with the table. */
async function apiItems(page: Page, params: { q: string; sort?: string; start?: number }): Promise<string[]> {
  const { docs } = await apiSearch(page.request, { ...params, rows: PAGE_SIZE });
  return docs.map((d) => String(d.item_number_s));
}

test.describe("sort by", () => {
  test("the Sort By select orders the results and resets the page", async ({ page }, testInfo) => {
    const js = isJs(testInfo);
    await openSearch(page, testInfo, searchUrl({ q: "pump", page: 2 }));
    const select = page.getByLabel("Sort By");
    await expect(select.locator("option")).toHaveText(["Relevance", "Org Code A-Z", "Org Code Z-A", "Item Type A-Z", "Item Type Z-A"]);
    await expect(select).toHaveValue("relevance");
    // Without JavaScript a button applies the choice; with it the change applies itself.
    await expect(page.getByRole("button", { name: "Sort", exact: true })).toHaveCount(js ? 0 : 1);

    const choose = async (label: string) => {
      await select.selectOption({ label });
      if (!js) await page.getByRole("button", { name: "Sort", exact: true }).click();
    };

    for (const [label, sort] of [
      ["Org Code A-Z", "org_code asc"],
      ["Item Type Z-A", "item_type desc"],
    ] as const) {
      await choose(label);
      await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["sort", sort]]));
      await expect(select).toHaveValue(sort);
      await expectCurrentPage(page, 1);
      const expected = await apiItems(page, { q: "pump", sort });
      await expect.poll(() => columnTexts(page, "Item Number")).toEqual(expected);
    }

    await choose("Relevance");
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"]]));
    await expect(select).toHaveValue("relevance");
    const relevance = await apiItems(page, { q: "pump" });
    await expect.poll(() => columnTexts(page, "Item Number")).toEqual(relevance);
  });

  test("a column header sorts ascending, then descending, and resets the page", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, searchUrl({ q: "pump", page: 2 }));
    const header = columnHeader(page, "Item Number");
    await expect(header).not.toHaveAttribute("aria-sort");

    await header.getByRole("link").click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["sort", "item_number asc"]]));
    await expect(header).toHaveAttribute("aria-sort", "ascending");
    await expectCurrentPage(page, 1);
    expectSortedColumn(await columnTexts(page, "Item Number"), "asc");
    // Only the sorted column says so.
    await expect(page.locator("table.results-table thead th[aria-sort]")).toHaveCount(1);

    await header.getByRole("link").click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["sort", "item_number desc"]]));
    await expect(header).toHaveAttribute("aria-sort", "descending");
    expectSortedColumn(await columnTexts(page, "Item Number"), "desc");

    // A different column starts ascending again.
    const quantity = columnHeader(page, "Quantity On Hand");
    await quantity.getByRole("link").click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["sort", "quantity_on_hand asc"]]));
    await expect(quantity).toHaveAttribute("aria-sort", "ascending");
    await expect(header).not.toHaveAttribute("aria-sort");
    expectSortedColumn(await columnTexts(page, "Quantity On Hand"), "asc", true);
  });

  test("column sorting is case-insensitive with blank values last in both directions", async ({ page }, testInfo) => {
    // A set of at most 100 results, all on one page, preferably with items lacking the field.
    const pump = await apiSearch(page.request, { q: "pump", rows: 0 });
    const orgs = pump.facets.find((f) => f.field.includes("org_code"))!.values.filter((v) => v.count <= 100);
    expect(orgs.length).toBeGreaterThan(0);
    let chosen = orgs[0]!.value;
    let hasBlanks = false;
    for (const org of orgs) {
      const { docs } = await apiSearch(page.request, { q: "pump", rows: 100, filters: { org_code: [{ value: org.value }] } });
      if (docs.some((d) => d.attribute_manufacturer_part_number_s == null)) {
        chosen = org.value;
        hasBlanks = true;
        break;
      }
    }

    await openSearch(page, testInfo, searchUrl({ q: "pump", f: `org_code:${chosen}`, rows: 100 }));
    const total = await shownTotal(page);
    const label = "Manufacturer Part Number";
    const header = columnHeader(page, label);
    for (const direction of ["asc", "desc"] as const) {
      await header.getByRole("link").click();
      await expect(page).toHaveURL(
        urlWith(SEARCH_PATH, [["q", "pump"], ["f", `org_code:${chosen}`], ["sort", `manufacturer_part_number ${direction}`], ["rows", "100"]]),
      );
      await expect(header).toHaveAttribute("aria-sort", direction === "asc" ? "ascending" : "descending");
      const values = await columnTexts(page, label);
      expect(values).toHaveLength(total);
      expectSortedColumn(values, direction);
      if (hasBlanks) expect(values[values.length - 1]).toBe(NULL_TEXT);
    }
  });
});

test("every column of the results sorts, Item Description too (its whole text, case-insensitively)", async ({ page }, testInfo) => {
  await openSearch(page, testInfo, searchUrl({ q: "pump" }));
  const label = "Item Description";
  const header = columnHeader(page, label);
  for (const direction of ["asc", "desc"] as const) {
    await header.getByRole("link").click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["sort", `item_description ${direction}`]]));
    await expect(header).toHaveAttribute("aria-sort", direction === "asc" ? "ascending" : "descending");
    expectSortedColumn(await columnTexts(page, label), direction);
  }
});

test.describe("paging", () => {
  test("page links, next, previous, first and last", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    const total = await shownTotal(page);
    const pages = Math.ceil(total / PAGE_SIZE);
    expect(pages, "pump needs at least 4 pages for this journey").toBeGreaterThanOrEqual(4);
    await expect(resultRows(page)).toHaveCount(PAGE_SIZE);
    await expectCurrentPage(page, 1);
    await expect(stepLink(page, "First")).toHaveCount(0);
    await expect(stepLink(page, "Previous")).toHaveCount(0);

    await pageLink(page, 2).click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["page", "2"]]));
    await expectCurrentPage(page, 2);
    await expect.poll(() => columnTexts(page, "Item Number")).toEqual(await apiItems(page, { q: "pump", start: PAGE_SIZE }));
    await expect(resultsHeading(page)).toHaveText(headingText(total, "pump"));

    await stepLink(page, "Next").click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["page", "3"]]));
    await expectCurrentPage(page, 3);

    await stepLink(page, "Previous").click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["page", "2"]]));
    await expectCurrentPage(page, 2);

    await stepLink(page, "Last").click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["page", String(pages)]]));
    await expectCurrentPage(page, pages);
    await expect(resultRows(page)).toHaveCount(total - (pages - 1) * PAGE_SIZE);
    await expect(stepLink(page, "Next")).toHaveCount(0);
    await expect(stepLink(page, "Last")).toHaveCount(0);

    await stepLink(page, "First").click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"]]));
    await expectCurrentPage(page, 1);
    await expect(resultRows(page)).toHaveCount(PAGE_SIZE);
  });

  test("Jump To goes to the page entered", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    const jump = page.getByLabel("Jump To");
    await jump.fill("3");
    await jump.press("Enter");
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["page", "3"]]));
    await expectCurrentPage(page, 3);

    await page.getByLabel("Jump To").fill("4");
    await page.getByRole("button", { name: "Go", exact: true }).click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["page", "4"]]));
    await expectCurrentPage(page, 4);
    await expect.poll(() => columnTexts(page, "Item Number")).toEqual(await apiItems(page, { q: "pump", start: 3 * PAGE_SIZE }));
  });

  test("Show 20, 50 or 100 changes the rows per page and goes back to page 1", async ({ page }, testInfo) => {
    const js = isJs(testInfo);
    await openSearch(page, testInfo, searchUrl({ q: "pump", page: 2 }));
    const total = await shownTotal(page);
    expect(total).toBeGreaterThan(100);
    const show = page.getByLabel("Show", { exact: true });
    await expect(show.locator("option")).toHaveText(["20", "50", "100"]);
    await expect(show).toHaveValue("20");
    await expect(page.getByRole("button", { name: "Apply", exact: true })).toHaveCount(js ? 0 : 1);

    for (const size of ["50", "100", "20"]) {
      await show.selectOption(size);
      if (!js) await page.getByRole("button", { name: "Apply", exact: true }).click();
      await expect(page).toHaveURL(urlWith(SEARCH_PATH, size === "20" ? [["q", "pump"]] : [["q", "pump"], ["rows", size]]));
      await expect(resultRows(page)).toHaveCount(Number(size));
      await expectCurrentPage(page, 1);
      await expect(show).toHaveValue(size);
    }
  });

  test("changing a filter resets the page", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, searchUrl({ q: "pump", page: 3 }));
    await expectCurrentPage(page, 3);
    const org = (await facetValues(page, FACET_LABELS.org_code))[0]!;
    await includeLink(page, FACET_LABELS.org_code, org.value).click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["f", `org_code:${org.value}`]]));
    await expect(resultsHeading(page)).toHaveText(headingText(org.count, "pump"));
    await expectCurrentPage(page, 1);
  });
});
