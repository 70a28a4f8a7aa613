/**
 * The item page as a picker reads it on a phone and at a desk: Previous and Next on the first
 * screen, prices with their currency, lead times in days, dates as people write them, and "← Back"
 * to the list it was opened from, the search box ready for the next scan.
 */
import { expect, test } from "./fixtures";
import { isJs, openSearch, resultRows, resultsHeading, searchUrl, specificationRows, waitForReact } from "./helpers";

const HEIGHT = 640;

for (const width of [320, 1280]) {
  test(`at ${width} px the item page has Previous/Next on the first screen, values for people, and Back to its list`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: HEIGHT });
    const list = searchUrl({ q: "pump", sort: "item_number asc" });
    await openSearch(page, testInfo, list);
    const row = resultRows(page).nth(14);
    await row.locator("a.row-link").click();
    await expect(page.locator("#product-title")).toBeVisible();
    await waitForReact(page, testInfo);

    const nav = page.getByRole("navigation", { name: "Results" });
    await expect(nav.getByRole("link", { name: /^Next: / })).toBeInViewport();
    await expect(nav.getByRole("link", { name: /^← Previous: / })).toBeInViewport();
    await expect(nav).toContainText("Result 15 of");

    const spec = new Map(await specificationRows(page));
    expect(spec.get("List Price")).toMatch(/^(\$\d+\.\d{2} USD|N\/A)$/);
    expect(spec.get("Unit Cost")).toMatch(/^(\$\d+\.\d{2} USD|N\/A)$/);
    expect(spec.get("Lead Time")).toMatch(/^(\d+ days?|N\/A)$/);
    expect(spec.get("Creation Date")).toMatch(/^(\d{1,2} [A-Z][a-z]+ \d{4}|N\/A)$/);
    expect([...spec.values()].filter((v) => /\$/.test(v)).length, "some price is shown").toBeGreaterThan(0);

    await page.getByRole("link", { name: "← Back", exact: true }).click();
    await expect(page.locator("#results-heading")).toBeVisible();
    expect(new URL(page.url()).search).toBe(new URL(list, "http://x").search);
    await expect(page.locator("#site-search")).toBeFocused();
  });
}

test("at 320 px \"← Back\" from an item returns to the list where it was scrolled", async ({ page }, testInfo) => {
  test.skip(!isJs(testInfo), "Without JavaScript the link opens the list at its top, the box focused for the next scan (docs/decisions/025); the browser's own Back keeps the place.");
  await page.setViewportSize({ width: 320, height: 640 });
  await openSearch(page, testInfo, searchUrl({ q: "pump" }));
  const row = resultRows(page).nth(8);
  await row.scrollIntoViewIfNeeded();
  const before = await page.evaluate(() => window.scrollY);
  expect(before, "the list scrolled down").toBeGreaterThan(500);
  await row.locator("a.row-link").click();
  await expect(page.locator("#product-title")).toBeVisible();
  await waitForReact(page, testInfo);
  await page.getByRole("link", { name: "← Back", exact: true }).click();
  await expect(resultsHeading(page)).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY), { message: "the list's scroll position" }).toBeGreaterThan(before - 40);
  expect(await page.evaluate(() => window.scrollY)).toBeLessThan(before + 40);
  // The next scan still lands: the box has the focus.
  await expect(page.locator("#site-search")).toBeFocused();
});
