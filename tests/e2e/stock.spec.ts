/**
 * Stock below its minimum, with JavaScript and without: the results say so on the item's row (or
 * card, on a phone) with the figures, and the item page says so under its title.
 */
import { expect, test } from "@playwright/test";
import { apiSearch, resultRows, searchUrl } from "./helpers";

const n = (value: unknown) => Number(value).toLocaleString("en-US");
const below = (doc: Record<string, unknown>) =>
  typeof doc.attribute_quantity_on_hand_i === "number" && typeof doc.attribute_org_min_stock_level_i === "number" && doc.attribute_quantity_on_hand_i < doc.attribute_org_min_stock_level_i;

for (const width of [360, 1280]) {
  test(`at ${width} px: an item below its minimum is marked in the results and on its page`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: 800 });
    const { docs } = await apiSearch(request, { q: "seal", rows: 20 });
    const low = docs.find(below)!;
    const ok = docs.find((d) => !below(d) && typeof d.attribute_quantity_on_hand_i === "number");
    expect(low, "an item below its minimum among the first 20").toBeTruthy();
    const number = String(low.item_number_s);
    await page.goto(searchUrl({ q: "seal" }));
    const row = resultRows(page).filter({ has: page.locator("a.row-link", { hasText: number }) });
    const figures = `${n(low.attribute_quantity_on_hand_i)} on hand, minimum ${n(low.attribute_org_min_stock_level_i)}`;
    await expect(row.locator(".badge-low")).toHaveText(`Below minimum: ${figures}`);
    await expect(row.locator(".badge-low")).toHaveAttribute("title", figures);
    if (ok) await expect(resultRows(page).filter({ has: page.locator("a.row-link", { hasText: String(ok.item_number_s) }) }).locator(".badge-low")).toHaveCount(0);
    await row.locator("a.row-link").click();
    await expect(page.locator("#product-title")).toContainText(number);
    await expect(page.locator(".stock-low")).toHaveText(`Below minimum stock: ${n(low.attribute_quantity_on_hand_i)} on hand, minimum ${n(low.attribute_org_min_stock_level_i)}`);
  });
}
