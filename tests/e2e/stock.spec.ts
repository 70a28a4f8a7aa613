/**
 * Stock below its minimum, with JavaScript and without: the results say so on the item's row (or
 * card, on a phone) with the figures, and the item page says so under its title; the Stock Level
 * filter lists those items alone, or leaves them out.
 */
import { expect, test } from "./fixtures";
import { apiSearch, currentParams, excludeLink, facetValues, includeLink, openSearch, resultRows, searchUrl, selectedFilters, shownTotal } from "./helpers";

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

test("the Stock Level filter lists exactly the items below their minimum, and leaves them out when excluded", async ({ page, request }, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const seals = await apiSearch(request, { q: "seal", rows: 100 });
  let expected = seals.docs.filter(below).length;
  for (let start = 100; start < seals.numFound; start += 100) expected += (await apiSearch(request, { q: "seal", rows: 100, start })).docs.filter(below).length;
  expect(expected, "seals below their minimum, and seals that are not").toBeGreaterThan(0);
  expect(expected).toBeLessThan(seals.numFound);

  await openSearch(page, testInfo, searchUrl({ q: "seal" }));
  expect(await facetValues(page, "Stock Level")).toEqual([{ value: "Below minimum", count: expected, selected: null }]);
  await includeLink(page, "Stock Level", "Below minimum").click();
  await expect(selectedFilters(page).locator("li > span")).toHaveText(["Stock Level is Below minimum"]);
  expect(currentParams(page).getAll("f")).toEqual(["stock_level:Below minimum"]);
  expect(await shownTotal(page)).toBe(expected);
  await expect(resultRows(page)).toHaveCount(Math.min(expected, 20));
  await expect(resultRows(page).locator(".badge-low")).toHaveCount(Math.min(expected, 20));

  await excludeLink(page, "Stock Level", "Below minimum").click();
  await expect(selectedFilters(page).locator("li > span")).toHaveText(["Stock Level is not Below minimum"]);
  expect(currentParams(page).getAll("nf")).toEqual(["stock_level:Below minimum"]);
  expect(await shownTotal(page)).toBe(seals.numFound - expected);
  await expect(resultRows(page)).toHaveCount(Math.min(seals.numFound - expected, 20));
  await expect(resultRows(page).locator(".badge-low")).toHaveCount(0);
});
