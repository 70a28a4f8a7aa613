/**
 * A picker's round, at 320 and 1280 px, with JavaScript, without it and in lite mode: a filtered
 * list, an item from it, its Where Used, a new number scanned there (the item opens though the list
 * was filtered to another category), back to the list, and the list printed whole as a pick list:
 * the search, its filter, the range and the date on top; the locator, the quantity and a tick box
 * on every row.
 */
import { expect, test } from "./fixtures";
import { apiFacet, apiSearch, resultRows, searchUrl, waitForReact } from "./helpers";

for (const width of [320, 1280]) {
  test(`at ${width} px: filtered list → item → Where Used → scan → item → the list printed`, async ({ page, request }, testInfo) => {
    await page.setViewportSize({ width, height: 640 });
    const pumps = await apiSearch(request, { q: "pump", rows: 0 });
    const category = apiFacet(pumps, "category")[0]!;
    const thermostats = await apiSearch(request, { q: "thermostat", rows: 20 });
    const scanned = thermostats.docs.find((d) => Object.entries(d).some(([n, v]) => n.endsWith("category_s") && v !== category.value));
    const number = String(scanned?.item_number_s ?? "");
    expect(number, "a thermostat outside the list's category").toBeTruthy();
    const list = searchUrl({ q: "pump", f: `category:${category.value}` });

    // The filtered list, and its first item.
    await page.goto(list);
    await expect(page.locator("#results-heading")).toHaveText(`${category.count} results for "pump"`);
    await waitForReact(page, testInfo);
    const first = resultRows(page).first().locator("a.row-link");
    const item = ((await first.textContent()) ?? "").replace(/ \(inactive item\)$/, "").trim();
    await first.click();
    await expect(page.locator("#product-title")).toContainText(item);

    // Its Where Used.
    await waitForReact(page, testInfo);
    await page.getByRole("link", { name: "View Where Used" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Where Used: ${item}`);
    await waitForReact(page, testInfo);

    // A scan there: keystrokes and Enter into the focused box.
    await expect(page.locator("#site-search")).toBeFocused();
    await page.keyboard.type(number, { delay: 15 });
    await page.keyboard.press("Enter");
    await expect(page.locator("#product-title")).toContainText(number);

    // Back to the list through the Where Used page's breadcrumb.
    await page.goBack();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Where Used: ${item}`);
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: 'Search Results: "pump"' }).click();
    await expect(page.locator("#results-heading")).toHaveText(`${category.count} results for "pump"`);

    // The whole list, printed.
    await page.getByRole("link", { name: "Print list" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Pick list: ${category.count} results for "pump"`);
    await page.emulateMedia({ media: "print" });
    const shown = Math.min(500, category.count);
    await expect(page.locator(".pick-list-meta")).toContainText(`Category is ${category.value}`);
    await expect(page.locator(".pick-list-range")).toHaveText(shown < category.count ? `first ${shown} of ${category.count}` : `1–${shown} of ${shown}`);
    await expect(page.locator(".pick-list-meta")).toContainText(/printed \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    const headers = page.locator(".pick-list-table thead th");
    await expect(headers).toHaveText(["Picked", "#", "Stock Locator", "Subinventory", "Item Number", "Item Description", "Quantity On Hand", "Issue UOM", "Status"]);
    await expect(page.locator(".pick-list-table tbody tr")).toHaveCount(shown);
    await expect(page.locator(".pick-list-table tbody tr").last()).toBeVisible();
    await expect(page.locator(".pick-list-table tbody tr").first().locator("td.c-stock_locator")).toBeVisible();
    await expect(page.locator(".pick-list-table tbody tr").first().locator("td.c-quantity_on_hand")).toHaveText(/^\d+$/);
    // Nothing on paper that is for the screen.
    await expect(page.getByRole("link", { name: "← Back to results" })).toBeHidden();
  });
}
