/**
 * A portal whose backup is a product backend (BACKEND_URL) instead of its own catalogue. Its search
 * platform is configured but never there (nothing listens on the port), so every search falls back
 * to the backend: here the first test portal's /api, serving a catalogue of 5,000 items, while this
 * portal's own catalogue has 50. Counts and rows are compared with the backend's answers, so they
 * show where the page's data came from. Each test runs with and without JavaScript.
 */
import type { Page, PlaywrightWorkerArgs } from "@playwright/test";
import { expect, statusError, test } from "./fixtures";
import { BACKEND_MODE_URL, BASE_URL } from "../../playwright.config";
import {
  apiSearch,
  columnTexts,
  facetValues,
  FACET_LABELS,
  headingText,
  includeLink,
  openSearch,
  resultRows,
  resultsHeading,
  SEARCH_PATH,
  searchUrl,
  urlWith,
  waitForReact,
} from "./helpers";

/** Here the backup is the product backend, and the notice says so (it has no catalogue build date to give). */
const NOTICE = "The search platform is not answering; these results come from the product backend; stock figures may be out of date.";
const CATEGORY = FACET_LABELS.category;

test.use({ baseURL: BACKEND_MODE_URL });

/** A search on the backend itself (the first test portal's /api). */
async function backendSearch(playwright: PlaywrightWorkerArgs["playwright"], params: Parameters<typeof apiSearch>[1]) {
  const backend = await playwright.request.newContext({ baseURL: BASE_URL });
  try {
    return await apiSearch(backend, params);
  } finally {
    await backend.dispose();
  }
}

function notice(page: Page) {
  return page.getByRole("status").filter({ hasText: NOTICE });
}

/**
 * The sample catalogue numbers its items from ITEM-0000001, the same way at every size: this
 * portal's 50 items are the backend's first 50. An item past them can only have come from the backend.
 */
function onlyInBackend(doc: Record<string, unknown>): boolean {
  return Number(/\d+$/.exec(String(doc.id))?.[0]) > 50;
}

test.describe("answers from the product backend", () => {
  test("a search shows the backend's results and count, with the backup notice", async ({ page, playwright }, testInfo) => {
    const expected = await backendSearch(playwright, { q: "pump", rows: 20 });
    expect(expected.numFound, "the backend has more pumps than this portal's 50 items").toBeGreaterThan(50);

    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    await expect(notice(page)).toBeVisible();
    await expect(resultsHeading(page)).toHaveText(headingText(expected.numFound, "pump"));
    expect(await columnTexts(page, "Item Number")).toEqual(expected.docs.map((d) => String(d.item_number_s)));

    // Each search that finds Fusion refusing counts towards opening the breaker; once it is open the
    // backend is the engine serving.
    await expect
      .poll(async () => {
        await page.request.get("/api/search?q=pump&rows=0");
        return (await (await page.request.get("/api/health")).json()).data.engines;
      })
      .toMatchObject({ serving: "backend", fallback: "backend", primary: { name: "fusion", breaker: { state: "open" } } });
  });

  test("a facet filter and the next page are answered by the backend too", async ({ page, playwright }, testInfo) => {
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    const values = await facetValues(page, CATEGORY);
    const value = values.find((v) => v.count > 20);
    expect(value, "a category with more than one page of pumps").toBeDefined();

    await includeLink(page, CATEGORY, value!.value).click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["f", `category:${value!.value}`]]));
    await expect(resultsHeading(page)).toHaveText(headingText(value!.count, "pump"));
    await expect(notice(page)).toBeVisible();

    const second = await backendSearch(playwright, { q: "pump", rows: 20, start: 20, filters: { category: [{ value: value!.value }] } });
    await page.getByRole("link", { name: "Next page", exact: true }).click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["f", `category:${value!.value}`], ["page", "2"]]));
    // The heading stays the same: wait for the rows of the second page.
    await expect.poll(() => columnTexts(page, "Item Number")).toEqual(second.docs.map((d) => String(d.item_number_s)));
    await expect(notice(page)).toBeVisible();
  });

  test("an item opens from the results, looked up through the backend", async ({ page, playwright }, testInfo) => {
    const { docs } = await backendSearch(playwright, { q: "pump", rows: 20 });
    const index = docs.findIndex(onlyInBackend);
    expect(index, "a pump on the first page that this portal's catalogue does not have").toBeGreaterThanOrEqual(0);
    const doc = docs[index]!;
    const item = String(doc.item_number_s);

    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    await resultRows(page).nth(index).locator("a.row-link").click();
    await expect(page).toHaveURL((url) => url.pathname === `/product/${encodeURIComponent(item)}`);
    await expect(page.locator("#product-title")).toContainText(`(${item})`);
    await expect(page.locator("#product-title")).toContainText(String(doc.item_description_t));
    await waitForReact(page, testInfo);
  });

  test("Where Used needs the search platform: without it the page says so, with Try Again", async ({ page, playwright, consoleErrors }) => {
    const { docs } = await backendSearch(playwright, { q: "pump", rows: 1 });
    const path = `/where-used/${encodeURIComponent(String(docs[0]!.item_number_s))}`;
    // The 503 is the page under test: the browser reports its status.
    consoleErrors.expect(statusError(503, path));
    // The product backend has no BOM calls: the spec sends them to the search platform only.
    const response = await page.goto(path);
    expect(response?.status()).toBe(503);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Failed to fetch Where Used data");
    await expect(page.getByRole("link", { name: "Try Again", exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "← Back to Search", exact: true })).toBeVisible();
  });
});
