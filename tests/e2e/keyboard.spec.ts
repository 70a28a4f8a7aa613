/**
 * Keyboards and barcode scanners: a scan (keystrokes and Enter) works on a freshly loaded page with
 * no click; a whole journey (search, filter, open an item, back) is done with the keyboard alone,
 * the first result a few Tab presses from the top. With JavaScript, `/` focuses the search box and
 * a slow navigation shows a progress bar and dims the old count.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectBoxQuery, FACET_LABELS, HOME_PATH, isJs, resultsHeading, SEARCH_PATH, urlWith, waitForHydration, waitForReact } from "./helpers";

/** Presses Tab until `wanted` holds for the focused element; returns the presses it took (at most `max`). */
async function tabUntil(page: Page, wanted: (el: { tag: string; name: string; className: string }) => boolean, max: number): Promise<number> {
  for (let presses = 1; presses <= max; presses++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return { tag: el?.tagName ?? "", name: el?.getAttribute("aria-label") ?? el?.textContent?.trim() ?? "", className: el?.className ?? "" };
    });
    if (wanted(focused)) return presses;
  }
  throw new Error(`nothing wanted within ${max} Tab presses`);
}

const box = (page: Page) => page.locator("#site-search");

test("a keyboard-only journey: scan, filter, open the first result, back", async ({ page }, testInfo) => {
  await page.goto(HOME_PATH);
  await waitForHydration(page, testInfo);
  // A scan on a fresh page: no click first.
  await expect(box(page)).toBeFocused();
  await page.keyboard.type("pump");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"]]));
  await expect(resultsHeading(page)).toHaveText(/results for "pump"$/);
  await waitForHydration(page, testInfo);
  await expect(box(page)).toBeFocused();
  await expectBoxQuery(page, testInfo, "pump");

  // The filters are one Tab press and Enter away, and each value is one tab stop.
  await tabUntil(page, (el) => el.name === "Skip to filters", 4);
  await page.keyboard.press("Enter");
  await tabUntil(page, (el) => el.name.startsWith(`Include ${FACET_LABELS.category}:`), 30);
  const include = (await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))) ?? "";
  const value = include.slice(`Include ${FACET_LABELS.category}: `.length);
  if (isJs(testInfo)) {
    // The exclude control is reached with the arrow keys, not with Tab.
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("link", { name: `Exclude ${FACET_LABELS.category}: ${value}`, exact: true })).toBeFocused();
    await page.keyboard.press("ArrowLeft");
    await expect(page.getByRole("link", { name: include, exact: true })).toBeFocused();
  }
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["f", `category:${value}`]]));
  await waitForHydration(page, testInfo);

  // From the top of the page, the skip link leads to the results; the first result is near.
  await page.reload();
  await waitForHydration(page, testInfo);
  await expect(box(page)).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Shift+Tab");
  await expect(page.locator("a.skip-link").first()).toBeFocused();
  await page.keyboard.press("Enter");
  const presses = await tabUntil(page, (el) => el.className.includes("row-link"), 15);
  expect(presses, "Tab presses from the results heading to the first result").toBeLessThanOrEqual(10);
  const item = (await page.evaluate(() => document.activeElement?.textContent?.trim())) ?? "";
  await page.keyboard.press("Enter");
  await expect(page.locator("#product-title")).toContainText(item.replace(/ \(inactive item\)$/, ""));
  await waitForReact(page, testInfo);
  // The item page keeps the search's query in the box, which has the focus for the next scan.
  await expectBoxQuery(page, testInfo, "pump");
  await expect(box(page)).toBeFocused();

  // Back, by keyboard: the page's own Back link, the second stop after the box.
  await tabUntil(page, (el) => el.name === "← Back", 6);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["f", `category:${value}`]]));
  await expect(resultsHeading(page)).toHaveText(/results for "pump"$/);
});

test.describe("with JavaScript", () => {
  // Skipped in the no-JavaScript projects on purpose: `/` and the progress bar are drawn by JavaScript.
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the shortcut and the progress bar are JavaScript's; without it the browser shows its own loading");

  test("/ focuses the search box; a slow navigation shows the progress bar and dims the count", async ({ page }, testInfo) => {
    await page.goto(`${SEARCH_PATH}?q=pump`);
    await waitForHydration(page, testInfo);
    await resultsHeading(page).focus();
    await page.keyboard.press("/");
    await expect(box(page)).toBeFocused();

    // Data requests wait until the test lets them go, however fast the server is.
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.route((url) => url.searchParams.has("_data"), async (route) => {
      await gate;
      await route.continue();
    });
    await page.keyboard.type("valve");
    await page.keyboard.press("Enter");
    await expect(page.locator(".nav-progress")).toHaveClass(/is-active/);
    await expect(resultsHeading(page)).toHaveClass(/is-stale/);
    await expect(page.locator(".searching")).toHaveText("Searching for appliances...");
    release();
    await expect(resultsHeading(page)).toHaveText(/results for "valve"$/);
    await expect(page.locator(".nav-progress")).not.toHaveClass(/is-active/);
    await expect(resultsHeading(page)).not.toHaveClass(/is-stale/);
  });
});
