/**
 * Narrow screens keep their height for the results: below 480 px the header scrolls away with the
 * page (sticky, it took 22 % of a 640 px screen); at 1280 px it stays. The facets' exclude controls
 * are touch targets of 24 × 24 px at least.
 */
import { expect, test } from "@playwright/test";
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
