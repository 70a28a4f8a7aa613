/**
 * Where Used sorts and pages each section as a person asks: Sort By offers real orders (item
 * number both ways, org code, asset number, asset group, quantity) and Show the page size, with
 * JavaScript (on change) and without it (Apply), at 320 and 1280 px.
 */
import { expect, test } from "@playwright/test";
import { bomColumnTexts, bomSection, findBomItem, isJs, waitForReact } from "./helpers";

for (const width of [320, 1280]) {
  test(`at ${width} px a Where Used section sorts by item number Z-A and shows 20 rows`, async ({ page, request }, testInfo) => {
    await page.setViewportSize({ width, height: 640 });
    const { item, counts } = await findBomItem(request, (c) => c.asset > 6, "is used in more than 6 asset BOMs");
    await page.goto(`/where-used/${encodeURIComponent(item)}`);
    await waitForReact(page, testInfo);
    const asset = bomSection(page, "Asset BOM");
    await expect(asset.locator("tbody > tr")).toHaveCount(Math.min(5, counts.asset));
    const sort = asset.getByRole("combobox", { name: "Asset BOM sort" });
    await expect(sort.locator("option")).toHaveText(["Item Number A-Z", "Item Number Z-A", "Org Code A-Z", "Asset Number A-Z", "Asset Group A-Z", "Quantity, most first"]);

    await sort.selectOption("item_number desc");
    if (!isJs(testInfo)) await asset.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/asset-sort=item_number\+desc/);
    await waitForReact(page, testInfo);
    const items = await bomColumnTexts(bomSection(page, "Asset BOM"), "Item Number");
    expect(items, "item numbers Z-A").toEqual([...items].sort((a, b) => b.toLowerCase().localeCompare(a.toLowerCase())));

    await bomSection(page, "Asset BOM").getByRole("combobox", { name: "Asset BOM rows per page" }).selectOption("20");
    if (!isJs(testInfo)) await bomSection(page, "Asset BOM").getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/asset-rows=20/);
    await expect(bomSection(page, "Asset BOM").locator("tbody > tr")).toHaveCount(Math.min(20, counts.asset));
    await expect(bomSection(page, "Asset BOM").locator(".range")).toHaveText(`1-${Math.min(20, counts.asset)} of ${counts.asset}`);
    // The sort chosen before stays.
    await expect(bomSection(page, "Asset BOM").getByRole("combobox", { name: "Asset BOM sort" })).toHaveValue("item_number desc");
  });
}
