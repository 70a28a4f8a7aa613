/**
 * What JavaScript adds on top of the server-rendered page: navigation without reloading the
 * document, focus on the results heading after each search, and history that restores the exact
 * URL and results. Without JavaScript every one of these is a full page load, so they are skipped.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  columnTexts,
  FACET_LABELS,
  facetValues,
  headingText,
  includeLink,
  openSearch,
  resultsHeading,
  SEARCH_PATH,
  searchUrl,
  shownTotal,
  submitHeaderSearch,
  urlWith,
} from "./helpers";

type Marked = Window & { __marker?: number };

async function setMarker(page: Page) {
  await page.evaluate(() => {
    (window as Marked).__marker = 1;
  });
}

async function marker(page: Page): Promise<number | undefined> {
  return page.evaluate(() => (window as Marked).__marker);
}

test.describe("with JavaScript", () => {
  // Run by the JavaScript project only (JS_ONLY_SPECS in playwright.config.ts).

  test("facet, page, sort, search-within and header search navigate without reloading the document", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    await setMarker(page);

    const org = (await facetValues(page, FACET_LABELS.org_code))[0]!;
    await includeLink(page, FACET_LABELS.org_code, org.value).click();
    await expect(resultsHeading(page)).toHaveText(headingText(org.count, "pump"));
    expect(await marker(page)).toBe(1);

    await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Page 2", exact: true }).click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["f", `org_code:${org.value}`], ["page", "2"]]));
    expect(await marker(page)).toBe(1);

    await page.getByLabel("Sort By").selectOption({ label: "Item Type A-Z" });
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["f", `org_code:${org.value}`], ["sort", "item_type asc"]]));
    expect(await marker(page)).toBe(1);

    await page.getByRole("searchbox", { name: "Search within" }).fill("assembly");
    await page.getByRole("searchbox", { name: "Search within" }).press("Enter");
    await expect(page).toHaveURL(
      urlWith(SEARCH_PATH, [["q", "pump"], ["f", `org_code:${org.value}`], ["within", "assembly"], ["sort", "item_type asc"]]),
    );
    expect(await marker(page)).toBe(1);

    // A new query keeps the filters and the sort (spec §4 resets the page and search-within only).
    await submitHeaderSearch(page, "valve");
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "valve"], ["f", `org_code:${org.value}`], ["sort", "item_type asc"]]));
    await expect(resultsHeading(page)).toHaveText(/results for "valve"$/);
    expect(await marker(page)).toBe(1);

    // "Search all items" leaves them behind, with no parameter of its own in the URL.
    await page.getByRole("checkbox", { name: /Search all items/ }).check();
    await submitHeaderSearch(page, "pump");
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"]]));
    await expect(page.getByRole("checkbox", { name: /Search all items/ })).toHaveCount(0);
    expect(await marker(page)).toBe(1);
  });

  test("a result opens without reloading; Ctrl-click opens it in a new tab and leaves the search as it was", async ({ page, context }, testInfo) => {
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    await setMarker(page);
    const first = page.locator("a.row-link").first();
    const href = (await first.getAttribute("href"))!;

    const opened = context.waitForEvent("page");
    await first.click({ modifiers: ["Control"] });
    const tab = await opened;
    await tab.waitForLoadState();
    expect(new URL(tab.url()).pathname).toBe(new URL(href, page.url()).pathname);
    await tab.close();
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(searchUrl({ q: "pump" }));
    expect(await marker(page)).toBe(1);

    await first.click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(new URL(href, page.url()).pathname);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await marker(page)).toBe(1);
  });

  test("after a filter the results heading has focus; after a new query the search box keeps it", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    // Not on the first load: the user starts at the top of the page.
    await expect(resultsHeading(page)).not.toBeFocused();

    const category = (await facetValues(page, FACET_LABELS.category))[0]!;
    await includeLink(page, FACET_LABELS.category, category.value).click();
    await expect(resultsHeading(page)).toHaveText(headingText(category.count, "pump"));
    await expect(resultsHeading(page)).toBeFocused();

    // Ready for the next scan: the box keeps the focus and the query.
    await submitHeaderSearch(page, "valve");
    await expect(resultsHeading(page)).toHaveText(/results for "valve"/);
    await expect(page.locator("#site-search")).toBeFocused();
    await expect(page.locator("#site-search")).toHaveValue("valve");
  });

  test("back and forward restore the exact URL and the results", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    await setMarker(page);
    const snapshot = async () => ({ url: page.url(), heading: await resultsHeading(page).textContent(), items: await columnTexts(page, "Item Number") });
    const a = await snapshot();

    const org = (await facetValues(page, FACET_LABELS.org_code))[1]!;
    await includeLink(page, FACET_LABELS.org_code, org.value).click();
    await expect(resultsHeading(page)).toHaveText(headingText(org.count, "pump"));
    const b = await snapshot();

    await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Next page", exact: true }).click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["f", `org_code:${org.value}`], ["page", "2"]]));
    await expect.poll(() => columnTexts(page, "Item Number")).not.toEqual(b.items);
    const c = await snapshot();

    for (const [step, want] of [
      ["back", b],
      ["back", a],
      ["forward", b],
      ["forward", c],
    ] as const) {
      if (step === "back") await page.goBack();
      else await page.goForward();
      await expect(page, `${step} to ${want.url}`).toHaveURL(want.url);
      await expect(resultsHeading(page)).toHaveText(want.heading ?? "");
      await expect.poll(() => columnTexts(page, "Item Number")).toEqual(want.items);
    }
    expect(await shownTotal(page)).toBe(org.count);
    expect(await marker(page)).toBe(1);
  });

  test("the logo reloads the whole document", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    await setMarker(page);
    await page.getByRole("link", { name: "Crib Search home" }).click();
    await expect(page).toHaveURL(urlWith("/crib-search"));
    await expect(resultsHeading(page)).toHaveText(/^\d+ results$/);
    expect(await marker(page)).toBeUndefined();
  });

  test("a term typed into a facet's search box does not outlive the search", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    const box = page.getByRole("searchbox", { name: `Search ${FACET_LABELS.manufacturer} values` });
    await box.fill("zzz");
    await expect(page.getByText('No options found for "zzz"')).toBeVisible();
    const org = (await facetValues(page, FACET_LABELS.org_code))[0]!;
    await includeLink(page, FACET_LABELS.org_code, org.value).click();
    await expect(resultsHeading(page)).toHaveText(headingText(org.count, "pump"));
    await expect(box).toHaveValue("");
    await expect(page.getByText('No options found for "zzz"')).toHaveCount(0);
  });
});

