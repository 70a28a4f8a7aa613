/**
 * Narrow screens keep their height for the results: below 480 px the header scrolls away with the
 * page (sticky, it took 22 % of a 640 px screen); at 1280 px it stays. The facets' exclude controls
 * are touch targets of 24 × 24 px at least.
 */
import { expect, test } from "./fixtures";
import { openSearch, searchUrl } from "./helpers";

for (const width of [320, 1280]) {
  test(`at ${width} px the header ${width < 480 ? "scrolls away" : "stays on top"} and the exclude controls are 24 px targets`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: 640 });
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    await page.mouse.wheel(0, 600);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
    const header = page.locator("header.site-header");
    if (width < 480) await expect(header).not.toBeInViewport();
    else await expect(header).toBeInViewport();

    if (width < 900) await page.locator("summary.filters-summary").click();
    const toggles = page.locator("aside.facet-panel .facet-toggle.exclude");
    expect(await toggles.count()).toBeGreaterThan(0);
    for (const toggle of (await toggles.all()).slice(0, 5)) {
      const box = (await toggle.boundingBox())!;
      expect(Math.min(box.width, box.height), "an exclude control is at least 24 px").toBeGreaterThanOrEqual(24);
    }
  });
}

test("a 320 × 640 first screen shows the results heading and four whole result cards, each target at least 24 px", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await openSearch(page, testInfo, searchUrl({ q: "pump" }));
  await expect(page.locator("#results-heading")).toBeInViewport({ ratio: 1 });
  const cards = page.locator("table.results-table tbody tr");
  expect(await cards.count()).toBeGreaterThanOrEqual(4);
  for (let i = 0; i < 4; i++) {
    const card = cards.nth(i);
    await expect(card, `card ${i + 1} whole on the first screen`).toBeInViewport({ ratio: 1 });
    // What a picker reads on each card: the number, the description, status and quantity, and Where Used.
    await expect(card.locator("td.c-item_number a")).toBeVisible();
    await expect(card.locator("td.c-item_description")).toBeVisible();
    await expect(card.locator("td.c-quantity_on_hand")).toBeVisible();
    const whereUsed = card.getByRole("link", { name: /^Where Used/ });
    const box = (await whereUsed.boundingBox())!;
    expect(Math.min(box.width, box.height), "Where Used is a 24 px target at least").toBeGreaterThanOrEqual(24);
  }
  // Where an item is kept shows beside its quantity (the sample leaves some items' locator blank).
  const locator = cards.locator("td.c-stock_locator:not(:empty)").first();
  await expect(locator).toBeVisible();
  await expect(locator).toHaveText(/^[A-Z]-\d+-\d+$/);
  // Nothing wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
});

test("at 1280 px the results table shows the stock locator beside the quantity (decision 042)", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSearch(page, testInfo, searchUrl({ q: "pump" }));
  const first = page.locator("table.results-table tbody tr").first();
  await expect(first.locator("td.c-quantity_on_hand")).toBeVisible();
  await expect(first.locator("td.c-stock_locator")).toBeVisible();
  await expect(page.locator("table.results-table thead th", { hasText: /locator/i })).toBeVisible();
});
