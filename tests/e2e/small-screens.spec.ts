/**
 * Shop-floor terminals and phones: at 320, 360 and 1280 px no page is wider than the window; on a
 * narrow screen the results come first, as cards, with the filters folded under them and the item
 * page readable; at 1280 px the Where Used column is on screen. And each page prints as a pick list.
 * One test per width, each page type loaded once.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { apiSearch, findBomHead, isJs, SEARCH_PATH, searchUrl, waitForHydration, waitForReact } from "./helpers";

/** The document's width against the window's: nothing may scroll sideways. */
async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll, `${what}: page width ${scroll} in a ${client} px window`).toBeLessThanOrEqual(client);
}

async function fixture(request: Parameters<typeof apiSearch>[0]) {
  const pump = await apiSearch(request, { q: "pump", rows: 0 });
  const category = pump.facets.find((f) => f.field === "category_s" || f.field.endsWith("category_s"))?.values[0]?.value;
  expect(category, "a category of the pump results").toBeTruthy();
  const { component: item, head } = await findBomHead(request, "asset", (lines) => lines.length > 0, "has lines");
  return { results: searchUrl({ q: "pump", f: `category:${category}` }), item, head };
}

for (const width of [320, 360, 1280]) {
  test(`at ${width} px every page type fits the window`, async ({ page, request }, testInfo) => {
    const narrow = width < 900;
    await page.setViewportSize({ width, height: 720 });
    const { results, item, head } = await fixture(request);
    const encoded = encodeURIComponent(item);

    await page.goto("/crib-search");
    await expect(page.locator("#results-heading")).toBeVisible();
    await expectNoSidewaysScroll(page, "home");
    const searchButton = page.getByRole("button", { name: "Search", exact: true });
    const box = await searchButton.boundingBox();
    expect(box!.x + box!.width, "the header's Search button is on screen").toBeLessThanOrEqual(width);

    await page.goto(results);
    await waitForHydration(page, testInfo);
    await expectNoSidewaysScroll(page, "results");
    const filters = page.locator("details.filters");
    await expect(page.locator("summary.filters-summary")).toHaveText("Filters (1 selected)");
    const firstRow = page.locator("table.results-table tbody tr").first();
    const whereUsed = firstRow.getByRole("link", { name: /^Where Used/ });
    const button = await whereUsed.boundingBox();
    expect(button!.x + button!.width, "the first row's Where Used is on screen").toBeLessThanOrEqual(width);
    if (narrow) {
      // Results first, filters folded under them, with or without JavaScript.
      const heading = await page.locator("#results-heading").boundingBox();
      const panel = await page.locator("aside.facet-panel").boundingBox();
      expect(heading!.y, "the results come before the filters").toBeLessThan(panel!.y);
      expect(heading!.y, "the results heading is in the first screen").toBeLessThan(720);
      await expect(filters).not.toHaveAttribute("open", /.*/);
      await expect(page.locator(".facet-values").first()).toBeHidden();
      // A card: the item number, its status, quantity on hand and locator, no table header; the
      // quantity and locator named (in short, on one line with the status, below 480 px).
      await expect(page.locator("table.results-table thead")).toBeHidden();
      const labels = await firstRow.locator("td[data-label]:visible").evaluateAll((cells) =>
        cells.map((td) => [td.getAttribute("data-label"), getComputedStyle(td, "::before").content]),
      );
      expect(labels, "the card names its values").toEqual([
        ["Status", "none"],
        ["Quantity On Hand", '"Qty: "'],
        ["Locator", '"Loc: "'],
      ]);
      await expect(firstRow.locator("td.c-manufacturer")).toBeHidden();
    } else {
      // Shown beside the results; served folded, opened by JavaScript so the disclosure says so.
      await expect(page.locator(".facet-values").first()).toBeVisible();
      if (isJs(testInfo)) await expect(filters).toHaveAttribute("open", /.*/);
      await expect(page.locator("table.results-table thead")).toBeVisible();
    }

    await page.goto(`${results}&export=all`);
    await expect(page.locator("dialog.export-dialog")).toBeVisible();
    await expectNoSidewaysScroll(page, "export dialog");
    const dialogBox = await page.locator("dialog.export-dialog").boundingBox();
    expect(dialogBox!.x + dialogBox!.width, "the dialog fits the window").toBeLessThanOrEqual(width);

    await page.goto(`/product/${encoded}?back=${encodeURIComponent(results)}`);
    await expect(page.locator("dl.spec-list")).toBeVisible();
    await expectNoSidewaysScroll(page, "item");
    // Values read normally: their column is wider than the labels' on a narrow screen too.
    const dt = await page.locator("dl.spec-list dt").first().boundingBox();
    const dd = await page.locator("dl.spec-list dd").first().boundingBox();
    expect(dd!.width, "the value column is at least as wide as the label column").toBeGreaterThanOrEqual(dt!.width);
    const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(pageHeight, "the item page does not grow to thousands of pixels of one-character lines").toBeLessThan(narrow ? 4000 : 2500);

    await page.goto(`/where-used/${encoded}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Where Used: ${item}`);
    await expectNoSidewaysScroll(page, "Where Used");

    // A record's asset number leads to the lines of that asset's BOM, on a card as in a table.
    const asset = page.getByRole("region", { name: "Asset BOM", exact: true }).locator('a[href^="/boms/"]').first();
    await expect(asset).toBeVisible();
    const link = (await asset.boundingBox())!;
    expect(link.x + link.width, "the asset number link is inside the window").toBeLessThanOrEqual(width);
    const number = ((await asset.textContent()) ?? "").trim();
    await waitForReact(page, testInfo);
    await asset.click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`BOM Lines ${number}`);
    await expectNoSidewaysScroll(page, "BOM lines");

    await page.goto(`/boms/${encodeURIComponent(head)}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(head);
    await expectNoSidewaysScroll(page, "BOM lines");

    await page.goto(`/bom/${encoded}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(item);
    await expectNoSidewaysScroll(page, "BOM");
  });
}

test("results, an item and Where Used print as pick lists: the search and date on top, no controls", async ({ page, request }) => {
  const { results, item } = await fixture(request);
  await page.emulateMedia({ media: "print" });
  const controls = ["header.site-header", "footer.site-footer", "aside.facet-panel", ".toolbar", ".pager-bar"];

  await page.goto(results);
  for (const selector of controls) await expect(page.locator(selector), selector).toBeHidden();
  await expect(page.locator(".print-meta")).toBeVisible();
  await expect(page.locator(".print-meta")).toContainText(/results for "pump" · Category is .+ · printed \d{4}-\d{2}-\d{2}/);
  await expect(page.locator("table.results-table tbody tr").first()).toBeVisible();
  await expect(page.getByRole("link", { name: /^Where Used/ }).first()).toBeHidden();

  await page.goto(`/product/${encodeURIComponent(item)}?back=${encodeURIComponent(results)}`);
  await expect(page.locator("header.site-header")).toBeHidden();
  await expect(page.getByRole("link", { name: "View Where Used" })).toBeHidden();
  await expect(page.locator(".print-meta")).toContainText(`${item} · printed`);
  await expect(page.locator("dl.spec-list")).toBeVisible();

  await page.goto(`/where-used/${encodeURIComponent(item)}?back=${encodeURIComponent(SEARCH_PATH)}`);
  await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toBeHidden();
  await expect(page.locator(".section-controls").first()).toBeHidden();
  await expect(page.locator(".print-meta")).toContainText(`Where Used: ${item} · printed`);
  await expect(page.locator(".bom-section table").first()).toBeVisible();
});
