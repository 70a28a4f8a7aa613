/**
 * The search page: header search, redirects, the results table, the empty state and recent
 * searches. Each test runs with and without JavaScript, with the same assertions.
 */
import type { Page } from "@playwright/test";
import { TYPEAHEAD } from "../../app/components/use-suggestions";
import { expect, test } from "./fixtures";
import {
  expectBoxQuery,
  apiSearch,
  columnTexts,
  currentPath,
  escapeRegExp,
  facetPanel,
  headerSearch,
  headingText,
  HOME_PATH,
  openSearch,
  resultRows,
  resultsHeading,
  resultsTable,
  SEARCH_PATH,
  searchUrl,
  selectedFilters,
  submitHeaderSearch,
  urlWith,
  waitForHydration,
} from "./helpers";

test.describe("header search", () => {
  test("the search box says Search and a padded query is trimmed into ?q=", async ({ page, request }, testInfo) => {
    const pump = await apiSearch(request, { q: "pump", rows: 0 });
    expect(pump.numFound).toBeGreaterThan(0);

    await openSearch(page, testInfo, HOME_PATH);
    await expect(headerSearch(page)).toHaveAttribute("placeholder", "Search");
    await submitHeaderSearch(page, "  pump  ");

    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"]]));
    expect(new URL(page.url()).search).toBe("?q=pump");
    await expect(resultsHeading(page)).toHaveText(headingText(pump.numFound, "pump"));
    await expectBoxQuery(page, testInfo, "pump");
  });

  test("type-ahead is off by default: typing asks for no suggestions and shows no list", async ({ page }, testInfo) => {
    const asked: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/api/suggestions")) asked.push(r.url());
    });
    // The page's clock is Playwright's, so the test can run it past the type-ahead's wait at once.
    await page.clock.install();
    await openSearch(page, testInfo, HOME_PATH);
    const box = headerSearch(page);
    await box.click();
    await box.pressSequentially("WR55", { delay: 50 });
    // Any timer the typing set for suggestions is due now; then a search, whose request follows any
    // request for suggestions those timers made.
    await page.clock.runFor(TYPEAHEAD.delayMs);
    const searched = page.waitForRequest((r) => r.url().includes("WR55") && !r.url().includes("/api/suggestions"));
    await box.press("Enter");
    await searched;
    expect(asked).toEqual([]);
    await expect(page.getByRole("listbox")).toHaveCount(0);
    await expect(page.getByRole("combobox", { name: "Search the catalogue" })).toHaveCount(0);
  });

  test("an empty submit shows every result with the plain heading", async ({ page, request }, testInfo) => {
    const all = await apiSearch(request, { rows: 0 });
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    await submitHeaderSearch(page, "   ");

    await expect(page).toHaveURL(urlWith(SEARCH_PATH));
    await expect(resultsHeading(page)).toHaveText(headingText(all.numFound));
    await expect(resultRows(page)).toHaveCount(20);
  });

  test("the logo goes to /crib-search and resets the query, filters, sort, page and search-within", async ({ page, request }, testInfo) => {
    const all = await apiSearch(request, { rows: 0 });
    const pump = await apiSearch(request, { q: "pump", rows: 0 });
    const orgCode = pump.facets.find((f) => f.field === "org_code_s")?.values[0]?.value;
    expect(orgCode).toBeTruthy();

    await openSearch(page, testInfo, searchUrl({ q: "pump", f: `org_code:${orgCode}`, within: "assembly", sort: "item_number desc", page: 2 }));
    await expect(selectedFilters(page)).toBeVisible();

    await page.getByRole("link", { name: "Crib Search home" }).click();

    await expect(page).toHaveURL(urlWith(HOME_PATH));
    await expect(resultsHeading(page)).toHaveText(headingText(all.numFound));
    await expect(headerSearch(page)).toHaveValue("");
    await expect(selectedFilters(page)).toHaveCount(0);
    await expect(page.getByLabel("Sort By")).toHaveValue("relevance");
    await expect(page.getByRole("list", { name: "Search-within terms" })).toHaveCount(0);
    await expect(page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Page 1", exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
  });
});

test.describe("results table", () => {
  test("a row's item link opens the product page and Where Used links back to this search", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, searchUrl({ q: "pump", sort: "item_number asc" }));
    const here = currentPath(page);
    const items = await columnTexts(page, "Item Number");
    expect(items.length).toBeGreaterThan(2);

    for (const [i, item] of items.slice(0, 3).entries()) {
      const row = resultRows(page).nth(i);
      const productHref = await row.locator("a.row-link").getAttribute("href");
      const product = new URL(productHref ?? "", page.url());
      expect(product.pathname).toBe(`/product/${encodeURIComponent(item)}`);
      expect(product.searchParams.get("back")).toBe(here);

      const whereUsed = row.getByRole("link", { name: `Where Used for ${item}`, exact: true });
      await expect(whereUsed).toHaveText(/^Where Used/);
      const whereUsedUrl = new URL((await whereUsed.getAttribute("href")) ?? "", page.url());
      expect(whereUsedUrl.pathname).toBe(`/where-used/${encodeURIComponent(item)}`);
      expect(whereUsedUrl.searchParams.get("back")).toBe(here);
      expect(whereUsedUrl.searchParams.get("back")?.startsWith(`${SEARCH_PATH}?`)).toBe(true);
    }
  });

  test("inactive rows are marked inactive for eyes and screen readers, the others are not", async ({ page, request }, testInfo) => {
    const statuses = (await apiSearch(request, { rows: 0 })).facets.find((f) => f.field.endsWith("status_s"))?.values ?? [];
    const inactive = statuses.find((s) => /inactive/i.test(s.value));
    const active = statuses.find((s) => !/inactive/i.test(s.value));
    expect(inactive, "the sample has an inactive status").toBeDefined();
    expect(active, "the sample has an active status").toBeDefined();

    // Both kinds on one page: the two statuses OR together, 100 rows.
    await openSearch(page, testInfo, searchUrl({ f: [`status:${inactive!.value}`, `status:${active!.value}`], rows: 100 }));
    const status = await columnTexts(page, "Status");
    const rows = await resultRows(page).evaluateAll((trs) =>
      trs.map((tr) => ({ inactiveClass: tr.classList.contains("inactive"), link: tr.querySelector("a.row-link")?.textContent ?? "" })),
    );
    expect(rows.length).toBe(status.length);
    expect(status.some((s) => /inactive/i.test(s))).toBe(true);
    expect(status.some((s) => !/inactive/i.test(s))).toBe(true);
    rows.forEach((row, i) => {
      const isInactive = /inactive/i.test(status[i]!);
      expect(row.inactiveClass, `row ${i} (${status[i]}) class`).toBe(isInactive);
      expect(row.link.includes("(inactive item)"), `row ${i} (${status[i]}) text`).toBe(isInactive);
    });
  });

  test("items without an image show the No Image placeholder", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, searchUrl({ rows: 50 }));
    const withoutImage = resultRows(page).filter({ hasNot: page.locator("img") });
    expect(await withoutImage.count()).toBeGreaterThan(0);
    const first = withoutImage.first().locator(".thumb");
    await expect(first).toHaveText("No Image");
    await expect(first.getByText("No Image", { exact: true })).toBeVisible();
    // Every row carries the placeholder (a broken image leaves it showing).
    await expect(resultRows(page).locator(".no-image")).toHaveCount(await resultRows(page).count());
  });

  test("query terms are highlighted with <mark> holding only text", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    const marks = resultsTable(page).locator("mark");
    expect(await marks.count()).toBeGreaterThan(0);
    for (const text of await marks.allTextContents()) expect(text).toMatch(/pump/i);
    await expect(resultsTable(page).locator("mark *")).toHaveCount(0);
  });

  test("markup in the query and in engine text is shown as text, never as elements", async ({ page }, testInfo) => {
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });

    const q = "<b>pump</b>";
    await openSearch(page, testInfo, searchUrl({ q }));
    await expect(resultsHeading(page)).toHaveText(/^\d+ results for "<b>pump<\/b>"$/);
    await expect(page.locator("main b")).toHaveCount(0);
    const marks = resultsTable(page).locator("mark");
    expect(await marks.count()).toBeGreaterThan(0);
    await expect(resultsTable(page).locator("mark *")).toHaveCount(0);
    await expectBoxQuery(page, testInfo, q);

    const evil = "<img src=x onerror=alert(1)>";
    await openSearch(page, testInfo, searchUrl({ q: evil }));
    await expect(resultsHeading(page)).toHaveText(new RegExp(`^\\d+ results for "${escapeRegExp(evil)}"$`));
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    expect(dialogs).toEqual([]);
  });
});

test.describe("states", () => {
  test("a query matching nothing says so", async ({ page, request }, testInfo) => {
    const q = "qzxjvwkq";
    expect((await apiSearch(request, { q, rows: 0 })).numFound).toBe(0);
    await openSearch(page, testInfo, searchUrl({ q }));
    await expect(resultsHeading(page)).toHaveText(headingText(0, q));
    await expect(page.getByText("No data found. Please try adjusting your search criteria", { exact: true })).toBeVisible();
    await expect(resultsTable(page)).toHaveCount(0);
    await expect(facetPanel(page).getByRole("heading", { name: "Filters", exact: true })).toBeVisible();
  });
});

// How many are kept (ten, under 4 KB) is the cookie's, tested in app/web/recent-searches.server.test.ts.
test.describe("recent searches", () => {
  const recentLinks = (page: Page) =>
    page.getByRole("navigation", { name: "Recent searches" }).getByRole("link");

  test("the home page lists recent searches newest first, without duplicates", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, HOME_PATH);
    await expect(page.getByRole("navigation", { name: "Recent searches" })).toHaveCount(0);

    await submitHeaderSearch(page, "pump");
    await expect(resultsHeading(page)).toHaveText(/results for "pump"$/);
    await waitForHydration(page, testInfo);
    await submitHeaderSearch(page, "valve");
    await expect(resultsHeading(page)).toHaveText(/results for "valve"$/);

    await openSearch(page, testInfo, HOME_PATH);
    await expect(recentLinks(page)).toHaveText(["valve", "pump"]);
    await expect(recentLinks(page).first()).toHaveAttribute("href", searchUrl({ q: "valve" }));
    await expect(recentLinks(page).nth(1)).toHaveAttribute("href", searchUrl({ q: "pump" }));

    // Searching pump again moves it to the front instead of listing it twice.
    await submitHeaderSearch(page, "pump");
    await expect(resultsHeading(page)).toHaveText(/results for "pump"$/);
    await openSearch(page, testInfo, HOME_PATH);
    await expect(recentLinks(page)).toHaveText(["pump", "valve"]);

    // A recent search is a working link.
    await recentLinks(page).nth(1).click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "valve"]]));
    await expect(resultsHeading(page)).toHaveText(/results for "valve"$/);
  });
});
