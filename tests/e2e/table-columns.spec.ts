/**
 * At 768 and 1280 px the results table shows every column on screen, with no sideways scrolling to
 * reach them: the stock locator, Quantity and the Where Used button included.
 */
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { openSearch, resultRows, resultsTable, searchUrl } from "./helpers";

/** Whether the element is drawn and lies inside the window's width. */
async function onScreen(page: Page, element: Locator): Promise<boolean> {
  const box = await element.boundingBox();
  const width = page.viewportSize()!.width;
  return box !== null && box.width > 0 && box.x >= 0 && box.x + box.width <= width;
}

for (const width of [768, 1280]) {
  test(`at ${width} px the locator, Quantity and Where Used are on screen`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    const headers = resultsTable(page).locator("thead th");
    for (const label of ["Stock Locator", "Quantity On Hand"]) {
      const header = headers.filter({ hasText: new RegExp(`^${label}`) }).first();
      await expect(header, `${label} column`).toBeVisible();
      expect(await onScreen(page, header), `${label} header inside the window`).toBe(true);
    }
    const row = resultRows(page).first();
    const whereUsed = row.getByRole("link", { name: /^Where Used/ });
    await expect(whereUsed).toBeVisible();
    expect(await onScreen(page, whereUsed), "Where Used inside the window").toBe(true);
  });
}
