/**
 * The Export menu on a phone and on a desk: its entries on screen at 320 px as at 1280 px, and the
 * menu folded once the dialog it opens is on screen, with JavaScript (the page stays) and without.
 */
import { expect, test } from "@playwright/test";
import { openSearch, searchUrl } from "./helpers";

for (const width of [320, 1280]) {
  test(`at ${width} px the Export menu is on screen and folds when the dialog opens`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: 640 });
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    const menu = page.locator("details.export-menu");
    await menu.locator("summary").click();
    await expect(menu).toHaveAttribute("open", "");
    for (const entry of await menu.getByRole("link").all()) {
      await expect(entry).toBeVisible();
      const box = (await entry.boundingBox())!;
      expect(box.x, `${await entry.textContent()} starts on screen`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${await entry.textContent()} ends on screen`).toBeLessThanOrEqual(width);
    }

    await menu.getByRole("link", { name: /^Export all results/ }).click();
    const dialog = page.locator("dialog.export-dialog");
    await expect(dialog.getByRole("heading", { name: "Export Search Results" })).toBeVisible();
    await expect(page.locator("details.export-menu")).not.toHaveAttribute("open", /.*/);
  });
}
