/**
 * The active filters are removable chips with their count and Clear All right above the results, on
 * the first screen at 320 px as at 1280 px (on a phone the filters panel is folded far below). A
 * filter click without JavaScript opens the new page at its top: the chip just added is on the
 * first screen and the search box has the focus for the next scan (a fragment would keep the
 * browser from focusing it, docs/decisions/025).
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { FACET_LABELS, facetValues, includeLink, isJs, openSearch, resultsHeading, searchUrl, selectedFilters } from "./helpers";

const HEIGHT = 640;

async function onFirstScreen(page: Page, selector: string, what: string): Promise<void> {
  const box = await page.locator(selector).first().boundingBox();
  expect(box, what).not.toBeNull();
  const scrollY = await page.evaluate(() => window.scrollY);
  expect(box!.y, `${what} is in the window`).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `${what} is on the first screen (scrolled ${scrollY})`).toBeLessThanOrEqual(HEIGHT);
}

for (const width of [320, 1280]) {
  test(`at ${width} px the active filters sit above the results as removable chips`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: HEIGHT });
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    const category = (await facetValues(page, FACET_LABELS.category))[0]!;
    await openSearch(page, testInfo, searchUrl({ q: "pump", f: `category:${category.value}`, nf: "status:Inactive" }));

    const chips = selectedFilters(page);
    await expect(chips.getByRole("heading", { name: "Selected Filters:", exact: true })).toBeVisible();
    await expect(chips.locator(".filters-count")).toHaveText("(2)");
    await expect(chips.locator("li > span")).toHaveText([`Category is ${category.value}`, "Status is not Inactive"]);
    await onFirstScreen(page, "section.selected-filters", "the chips");
    // Above the results, below their heading.
    const chipsBox = await chips.boundingBox();
    const heading = await resultsHeading(page).boundingBox();
    const firstRow = await page.locator("table.results-table tbody tr").first().boundingBox();
    expect(chipsBox!.y).toBeGreaterThan(heading!.y);
    expect(chipsBox!.y + chipsBox!.height).toBeLessThanOrEqual(firstRow!.y);
    // Touch targets of 24 × 24 px at least.
    for (const remove of await chips.getByRole("link", { name: /^Remove filter/ }).all()) {
      const box = (await remove.boundingBox())!;
      expect(Math.min(box.width, box.height), "a chip's × is at least 24 px").toBeGreaterThanOrEqual(24);
    }

    await chips.getByRole("link", { name: "Remove filter: Status is not Inactive" }).click();
    await expect(chips.locator("li > span")).toHaveText([`Category is ${category.value}`]);
    await expect(chips.locator(".filters-count")).toHaveText("(1)");
    // The page comes back at the results, the remaining chip on screen.
    await onFirstScreen(page, "section.selected-filters", "the chips after a removal");

    await chips.getByRole("link", { name: "Clear All", exact: true }).click();
    await expect(selectedFilters(page)).toHaveCount(0);
    await expect(resultsHeading(page)).toHaveText(/results for "pump"$/);
  });

  test(`at ${width} px after a filter click the new filter is on the first screen and the box ready for a scan`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: HEIGHT });
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    const summary = page.locator("summary.filters-summary");
    if (width < 900) await summary.click();
    const value = (await facetValues(page, FACET_LABELS.status))[0]!;
    await includeLink(page, FACET_LABELS.status, value.value).scrollIntoViewIfNeeded();
    await includeLink(page, FACET_LABELS.status, value.value).click();
    await expect(selectedFilters(page).locator("li > span")).toHaveText([`Status is ${value.value}`]);
    await onFirstScreen(page, "section.selected-filters", "the new filter's chip");
    if (!isJs(testInfo)) await expect(page.locator("#site-search")).toBeFocused();
    // With JavaScript the page stays; the focus goes to the results heading (decision 015).
    else await expect(resultsHeading(page)).toBeFocused();
  });
}
