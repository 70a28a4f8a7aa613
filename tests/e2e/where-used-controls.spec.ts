/**
 * Where Used sorts and pages each section as a person asks: Sort By offers real orders (asset
 * number both ways, the default; org code, asset group, quantity) and Show the page size, with
 * JavaScript (on change) and without it (Apply), at 320 and 1280 px. The item is named once, in
 * the heading: no column repeats it on every row, and no order sorts by it.
 */
import { expect, test } from "./fixtures";
import { bomColumnTexts, bomSection, findBomItem, isJs, waitForReact } from "./helpers";

for (const width of [320, 1280]) {
  test(`at ${width} px a Where Used section sorts by asset number Z-A and shows 20 rows`, async ({ page, request }, testInfo) => {
    await page.setViewportSize({ width, height: 640 });
    const { item, counts } = await findBomItem(request, (c) => c.asset > 6, "is used in more than 6 asset BOMs");
    await page.goto(`/where-used/${encodeURIComponent(item)}`);
    await waitForReact(page, testInfo);
    const asset = bomSection(page, "Asset BOM");
    await expect(asset.locator("tbody > tr")).toHaveCount(Math.min(5, counts.asset));
    const sort = asset.getByRole("combobox", { name: "Asset BOM sort" });
    await expect(sort.locator("option")).toHaveText(["Asset Number A-Z", "Asset Number Z-A", "Org Code A-Z", "Asset Group A-Z", "Quantity, most first"]);
    await expect(sort).toHaveValue("asset_number asc");
    await expect(asset.locator("thead th", { hasText: "Item Number" })).toHaveCount(0);
    await expect(asset.locator("thead th", { hasText: "Asset Number" })).toHaveAttribute("aria-sort", "ascending");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Where Used: ${item}`);

    await sort.selectOption("asset_number desc");
    if (!isJs(testInfo)) await asset.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/asset-sort=asset_number\+desc/);
    await waitForReact(page, testInfo);
    const heads = await bomColumnTexts(bomSection(page, "Asset BOM"), "Asset Number");
    expect(heads, "asset numbers Z-A").toEqual([...heads].sort((a, b) => b.toLowerCase().localeCompare(a.toLowerCase())));

    await bomSection(page, "Asset BOM").getByRole("combobox", { name: "Asset BOM rows per page" }).selectOption("20");
    if (!isJs(testInfo)) await bomSection(page, "Asset BOM").getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/asset-rows=20/);
    await expect(bomSection(page, "Asset BOM").locator("tbody > tr")).toHaveCount(Math.min(20, counts.asset));
    await expect(bomSection(page, "Asset BOM").locator(".range")).toHaveText(`1-${Math.min(20, counts.asset)} of ${counts.asset}`);
    // The sort chosen before stays.
    await expect(bomSection(page, "Asset BOM").getByRole("combobox", { name: "Asset BOM sort" })).toHaveValue("asset_number desc");
  });
}

test("Where Used prints every row: one link shows them all on one page, and paper gets them all", async ({ page, request }, testInfo) => {
  const { item, counts } = await findBomItem(request, (c) => c.asset > 20, "is used in more than 20 asset BOMs");
  await page.goto(`/where-used/${encodeURIComponent(item)}`);
  await waitForReact(page, testInfo);
  await expect(bomSection(page, "Asset BOM").locator("tbody > tr")).toHaveCount(5);
  const rows = Math.min(counts.asset, 1000) + Math.min(counts.pm, 1000);
  await page.getByRole("link", { name: `Show all ${rows} rows to print`, exact: true }).click();
  await expect(page).toHaveURL(/[?&]print=all/);
  await expect(bomSection(page, "Asset BOM").locator("tbody > tr")).toHaveCount(Math.min(counts.asset, 1000));
  await expect(bomSection(page, "Asset BOM").locator(".pager-bar")).toHaveCount(0);
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("link", { name: "Show pages", exact: true })).toBeHidden();
  const printed = await bomSection(page, "Asset BOM").locator("tbody > tr").evaluateAll((trs) => trs.filter((tr) => (tr as HTMLElement).offsetParent !== null).length);
  expect(printed, "every asset row on paper").toBe(Math.min(counts.asset, 1000));
  await page.emulateMedia({ media: "screen" });
  await waitForReact(page, testInfo);
  await page.getByRole("link", { name: "Show pages", exact: true }).click();
  await expect(page).not.toHaveURL(/print=all/);
  await expect(bomSection(page, "Asset BOM").locator("tbody > tr")).toHaveCount(5);
});
