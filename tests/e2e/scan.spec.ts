/**
 * A wedge scanner types fast keystrokes and Enter into whatever has the focus. On every page that
 * focuses the search box (home, results, filtered results, item, Where Used), with JavaScript, without
 * it and in lite mode, at 320 and 1280 px, the box comes up empty or with its text selected, so the
 * scanned number replaces the old query, and the number opens its item whatever filters the list had.
 */
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { apiFacet, apiSearch, HOME_PATH, isJs, searchUrl, waitForReact } from "./helpers";

interface Fixture {
  /** The number scanned: an item the filtered list does not show. */
  scanned: string;
  /** Another item, whose item and Where Used pages the scans start from. */
  other: string;
  /** A list filtered to a category the scanned item is not in. */
  filtered: string;
}

async function fixture(request: APIRequestContext): Promise<Fixture> {
  const pumps = await apiSearch(request, { q: "pump", rows: 2 });
  const [first, second] = pumps.docs;
  const scanned = String(first?.item_number_s ?? "");
  const other = String(second?.item_number_s ?? "");
  expect(scanned && other, "two pump items").toBeTruthy();
  const own = Object.entries(first!).find(([name]) => name.endsWith("category_s"))?.[1];
  const category = apiFacet(pumps, "category").find((v) => v.value !== own)?.value;
  expect(category, "a category the scanned item is not in").toBeTruthy();
  return { scanned, other, filtered: searchUrl({ q: "pump", f: `category:${category}` }) };
}

const box = (page: Page) => page.locator("#site-search");

/** What a person sees in the box before scanning: nothing, or the old query selected. */
async function expectReadyForScan(page: Page, query: string): Promise<void> {
  await expect(box(page)).toBeFocused();
  const state = await box(page).evaluate((el: HTMLInputElement) => ({ value: el.value, start: el.selectionStart, end: el.selectionEnd, placeholder: el.placeholder }));
  if (state.value === "") {
    // Served empty: the old query is the placeholder.
    expect(state.placeholder).toBe(query || "Search");
  } else {
    expect(state.value).toBe(query);
    expect([state.start, state.end], "the old query is selected").toEqual([0, query.length]);
  }
}

async function scan(page: Page, number: string): Promise<void> {
  await page.keyboard.type(number, { delay: 15 });
  await page.keyboard.press("Enter");
}

for (const width of [320, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.beforeEach(async ({ page }) => page.setViewportSize({ width, height: 640 }));

    test("a scan opens its item from the home, results, filtered results, item and Where Used pages", async ({ page, request }, testInfo) => {
      const { scanned, other, filtered } = await fixture(request);
      const itemBack = `/product/${encodeURIComponent(other)}?${new URLSearchParams({ back: filtered })}`;
      const starts: [string, string, string][] = [
        ["home", HOME_PATH, ""],
        ["results", searchUrl({ q: "pump" }), "pump"],
        ["filtered results", filtered, "pump"],
        ["item", itemBack, "pump"],
        ["Where Used", `/where-used/${encodeURIComponent(other)}?${new URLSearchParams({ back: filtered })}`, "pump"],
      ];
      for (const [what, url, query] of starts) {
        await test.step(`${what}, typed as soon as the page has loaded`, async () => {
          await page.goto(url);
          // With JavaScript, scanned before or while the page hydrates: no waiting.
          await expect(box(page)).toBeFocused();
          await scan(page, scanned);
          await expect(page).toHaveURL(new RegExp(`/product/${encodeURIComponent(scanned)}\\?`));
          await expect(page.locator("#product-title")).toContainText(scanned);
        });
        if (isJs(testInfo)) {
          await test.step(`${what}, typed once the page has hydrated`, async () => {
            await page.goto(url);
            await waitForReact(page, testInfo);
            await expectReadyForScan(page, query);
            await scan(page, scanned);
            await expect(page.locator("#product-title")).toContainText(scanned);
          });
        } else {
          await page.goto(url);
          await expectReadyForScan(page, query);
        }
      }
    });
  });
}

for (const width of [320, 1280]) {
  test(`at ${width} px a query the kept filters hide says how many all items hold, one click away`, async ({ page, request }, testInfo) => {
    await page.setViewportSize({ width, height: 640 });
    const thermostats = await apiSearch(request, { q: "thermostat", rows: 0 });
    expect(thermostats.numFound).toBeGreaterThan(0);
    const theirs = new Set(apiFacet(thermostats, "category").map((v) => v.value));
    const category = apiFacet(await apiSearch(request, { q: "", rows: 0 }), "category").find((v) => !theirs.has(v.value))?.value;
    expect(category, "a category without thermostats").toBeTruthy();

    await page.goto(searchUrl({ q: "pump", f: `category:${category}` }));
    await waitForReact(page, testInfo);
    await expect(box(page)).toBeFocused();
    await scan(page, "thermostat");
    await expect(page.locator("#results-heading")).toHaveText('0 results for "thermostat"');
    const notice = page.locator(".wider-search");
    const all = thermostats.numFound.toLocaleString("en-US");
    await expect(notice).toHaveText(`0 in Category: ${category} — ${all} in all items`);
    const where = await notice.boundingBox();
    expect(where!.y + where!.height, "the notice is on the first screen").toBeLessThanOrEqual(640);

    await notice.getByRole("link", { name: `${all} in all items` }).click();
    await expect(page.locator("#results-heading")).toHaveText(`${all} results for "thermostat"`);
    expect(new URL(page.url()).searchParams.getAll("f")).toEqual([]);
  });
}
