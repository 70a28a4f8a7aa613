/**
 * The item detail page, the BOM pages and the Where Used page: how they are reached from a search
 * and lead back to it, their sections, sorting and paging, their error states, and hostile item
 * numbers in the path. Each test runs with and without JavaScript, with the same assertions.
 *
 * Test data is found through the search API and the pages themselves: a component's uses come from
 * its BOM export and a BOM's lines from its lines export (`componentUses`, `bomCounts`,
 * `headLines`), never from hard-coded sample values.
 */
import type { Page } from "@playwright/test";
import { expect, statusError, test } from "./fixtures";
import {
  apiSearch,
  bomColumnTexts,
  bomCounts,
  bomPageTotals,
  bomSection,
  breadcrumbs,
  columnTexts,
  currentPath,
  findBomHead,
  findBomItem,
  headLines,
  NULL_TEXT,
  openSearch,
  resultRows,
  resultsHeading,
  SEARCH_PATH,
  searchUrl,
  sectionTotal,
  shownTotal,
  specificationRows,
  urlWith,
  waitForReact,
} from "./helpers";

const WHERE_USED_PAGE_SIZE = 5;
const BOM_PAGE_SIZE = 20;

const productPath = (item: string) => `/product/${encodeURIComponent(item)}`;
const whereUsedPath = (item: string) => `/where-used/${encodeURIComponent(item)}`;

function productTitle(page: Page) {
  return page.locator("#product-title");
}

/** Collects the messages of any alert/confirm/prompt, dismissing them. */
function watchDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return dialogs;
}

test.describe("item detail page", () => {
  test("a result's item link opens its page, which shows the item and goes Back to the exact search", async ({ page, request }, testInfo) => {
    const pump = await apiSearch(request, { q: "pump", rows: 0 });
    const org = pump.facets.find((f) => f.field === "org_code_s")?.values[0];
    expect(org, "pump results have an org code facet").toBeDefined();
    expect(org!.count, "enough results for a second page").toBeGreaterThan(20);

    await openSearch(page, testInfo, searchUrl({ q: "pump", f: `org_code:${org!.value}`, page: 2 }));
    const searchPath = currentPath(page);
    const item = (await columnTexts(page, "Item Number"))[0]!;
    const description = (await columnTexts(page, "Item Description"))[0]!;
    const product = (await (await request.get(`/api/products/${encodeURIComponent(item)}`)).json()).data as Record<string, unknown>;

    await resultRows(page).first().locator("a.row-link").click();

    await expect(page).toHaveURL(urlWith(productPath(item), [["back", searchPath], ["pos", "20"], ["via", "result"]]));
    await expect(productTitle(page)).toContainText(description);
    await expect(productTitle(page)).toContainText(`(${item})`);
    const spec = new Map(await specificationRows(page));
    expect(spec.get("Org Code")).toBe(String(product.org_code_s));
    expect(spec.get("Item Number")).toBe(item);

    await waitForReact(page, testInfo);
    await page.getByRole("link", { name: "← Back", exact: true }).click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [...new URL(searchPath, "http://x").searchParams]));
    expect(currentPath(page)).toBe(searchPath);
    await expect(resultsHeading(page)).toHaveText(`${org!.count} results for "pump"`);
    expect((await columnTexts(page, "Item Number"))[0]).toBe(item);
  });

  test("the first result of a search opens with position 0, and blank values show N/A beside the No Image placeholder", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    const first = (await columnTexts(page, "Item Number"))[0]!;
    await resultRows(page).first().locator("a.row-link").click();
    await expect(page).toHaveURL(urlWith(productPath(first), [["back", searchUrl({ q: "pump" })], ["pos", "0"], ["via", "result"]]));

    // Blank values sort last: the last page sorted by manufacturer holds items without one.
    await openSearch(page, testInfo, searchUrl({ sort: "manufacturer asc", rows: 100 }));
    const total = await shownTotal(page);
    await openSearch(page, testInfo, searchUrl({ sort: "manufacturer asc", rows: 100, page: Math.ceil(total / 100) }));
    const manufacturers = await columnTexts(page, "Manufacturer");
    const items = await columnTexts(page, "Item Number");
    const hasImage = await resultRows(page).evaluateAll((trs) => trs.map((tr) => tr.querySelector("img") !== null));
    const index = manufacturers.findIndex((m, i) => m === NULL_TEXT && !hasImage[i]);
    expect(index, "an item without manufacturer and without image in the sample").toBeGreaterThanOrEqual(0);
    const item = items[index]!;

    await resultRows(page).nth(index).locator("a.row-link").click();
    await expect(productTitle(page)).toContainText(`(${item})`);
    const spec = new Map(await specificationRows(page));
    expect(spec.get("Item Number")).toBe(item);
    const image = page.getByRole("complementary", { name: "Image" });
    await expect(image.getByText("No Image", { exact: true })).toBeVisible();
    await expect(image.locator("img")).toHaveCount(0);
    // The results table shows this item's blank manufacturer as N/A; so must its detail page
    // (spec §2 "empty values shown as N/A"; docs/catalog-format.md: a missing key is no value,
    // shown as N/A).
    expect(spec.get("Manufacturer"), `spec list of ${item}: ${JSON.stringify([...spec])}`).toBe(NULL_TEXT);
  });

  test("Previous and Next step through the search, and Back returns to the page holding the item", async ({ page }, testInfo) => {
    const url = searchUrl({ q: "pump", sort: "item_number asc" });
    await openSearch(page, testInfo, url);
    const total = await shownTotal(page);
    const items = await columnTexts(page, "Item Number");
    expect(items.length).toBeGreaterThanOrEqual(3);

    await resultRows(page).nth(1).locator("a.row-link").click();
    await expect(page).toHaveURL(urlWith(productPath(items[1]!), [["back", url], ["pos", "1"], ["via", "result"]]));
    const nav = page.getByRole("navigation", { name: "Results" });
    await expect(nav.getByRole("link", { name: `← Previous: ${items[0]}`, exact: true })).toBeVisible();
    await expect(nav.getByText(`Result 2 of ${total}`, { exact: true })).toBeVisible();
    await waitForReact(page, testInfo);
    await nav.getByRole("link", { name: `Next: ${items[2]} →`, exact: true }).click();

    await expect(page).toHaveURL(urlWith(productPath(items[2]!), [["back", url], ["pos", "2"]]));
    await expect(productTitle(page)).toContainText(`(${items[2]})`);
    await expect(nav.getByText(`Result 3 of ${total}`, { exact: true })).toBeVisible();
    await expect(nav.getByRole("link", { name: `← Previous: ${items[1]}`, exact: true })).toBeVisible();

    await waitForReact(page, testInfo);
    await page.getByRole("link", { name: "← Back", exact: true }).click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["sort", "item_number asc"]]));
    expect(await columnTexts(page, "Item Number")).toContain(items[2]);
  });

  test("Next across a page boundary goes Back to the next results page", async ({ page }, testInfo) => {
    const url = searchUrl({ q: "pump", sort: "item_number asc" });
    await openSearch(page, testInfo, url);
    const rows = await resultRows(page).count();
    expect(rows).toBe(20);
    const last = (await columnTexts(page, "Item Number"))[19]!;

    await resultRows(page).nth(19).locator("a.row-link").click();
    await expect(productTitle(page)).toContainText(`(${last})`);
    await waitForReact(page, testInfo);
    await page.getByRole("navigation", { name: "Results" }).getByRole("link", { name: /^Next: / }).click();
    await expect(page.getByRole("navigation", { name: "Results" }).getByText(/^Result 21 of \d+$/)).toBeVisible();
    const itemText = (await productTitle(page).locator(".muted").textContent()) ?? "";
    const item = itemText.replace(/^\(|\)$/g, "");

    await waitForReact(page, testInfo);
    await page.getByRole("link", { name: "← Back", exact: true }).click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["sort", "item_number asc"], ["page", "2"]]));
    expect((await columnTexts(page, "Item Number"))[0]).toBe(item);
  });
});

test.describe("Where Used page", () => {
  test("from a product page: breadcrumbs Home › Search Results › Product › Where Used, and back to the search", async ({ page }, testInfo) => {
    const url = searchUrl({ q: "pump" });
    await openSearch(page, testInfo, url);
    const item = (await columnTexts(page, "Item Number"))[0]!;
    await resultRows(page).first().locator("a.row-link").click();
    await expect(productTitle(page)).toContainText(`(${item})`);
    await waitForReact(page, testInfo);

    await page.getByRole("link", { name: "View Where Used", exact: true }).click();
    await expect(page).toHaveURL((u) => u.pathname === whereUsedPath(item));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Where Used: ${item}`);
    await expect(breadcrumbs(page)).toHaveText(["Home", 'Search Results: "pump"', `Product ${item}`, `Where Used: ${item}`]);
    const trail = page.getByRole("navigation", { name: "Breadcrumb" });
    await expect(trail.getByRole("link", { name: "Home", exact: true })).toHaveAttribute("href", "/crib-search");
    await expect(trail.getByText(`Where Used: ${item}`)).toHaveAttribute("aria-current", "page");

    await waitForReact(page, testInfo);
    await trail.getByRole("link", { name: `Product ${item}`, exact: true }).click();
    await expect(productTitle(page)).toContainText(`(${item})`);
    await page.goBack();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Where Used: ${item}`);

    await waitForReact(page, testInfo);
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: 'Search Results: "pump"', exact: true }).click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"]]));
    await expect(resultsHeading(page)).toHaveText(/results for "pump"$/);
  });

  test("from a search row: no Product crumb; visited directly: only Home", async ({ page }, testInfo) => {
    const url = searchUrl({ q: "pump", sort: "item_number asc" });
    await openSearch(page, testInfo, url);
    const item = (await columnTexts(page, "Item Number"))[0]!;
    await resultRows(page).first().getByRole("link", { name: `Where Used for ${item}`, exact: true }).click();
    await expect(page).toHaveURL(urlWith(whereUsedPath(item), [["back", url]]));
    await expect(breadcrumbs(page)).toHaveText(["Home", 'Search Results: "pump"', `Where Used: ${item}`]);
    await waitForReact(page, testInfo);
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: 'Search Results: "pump"' }).click();
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["sort", "item_number asc"]]));

    await page.goto(whereUsedPath(item));
    await expect(breadcrumbs(page)).toHaveText(["Home", `Where Used: ${item}`]);
  });

  test("sections: range text, five rows, sort links with aria-sort, own pager and Jump To, export link", async ({ page, request }, testInfo) => {
    // More than two pages of asset uses, so that the pager, page 2 and a jump are all meaningful.
    const { item, counts } = await findBomItem(request, (c) => c.asset > 2 * WHERE_USED_PAGE_SIZE, "is used in more than 10 asset BOMs");
    const n = counts.asset;
    const lastPage = Math.ceil(n / WHERE_USED_PAGE_SIZE);

    const response = await page.goto(whereUsedPath(item));
    expect(response?.status()).toBe(200);
    await waitForReact(page, testInfo);
    const asset = bomSection(page, "Asset BOM");
    const pm = bomSection(page, "PM BOM");
    await expect(asset.getByRole("heading", { name: "Asset BOM" })).toBeVisible();
    await expect(pm.getByRole("heading", { name: "PM BOM" })).toBeVisible();
    await expect(asset.locator(".range")).toHaveText(`1-5 of ${n}`);
    await expect(asset.locator("tbody > tr")).toHaveCount(WHERE_USED_PAGE_SIZE);
    // Default order: by asset; the item, the same on every row, is named in the heading alone.
    await expect(asset.locator("th", { hasText: "Asset Number" })).toHaveAttribute("aria-sort", "ascending");
    await expect(asset.locator("th", { hasText: "Item Number" })).toHaveCount(0);
    await expect(asset.getByRole("combobox", { name: "Asset BOM sort" })).toHaveValue("asset_number asc");
    // The PM section as it is now; the asset section's paging and sorting must leave it alone.
    const pmText = pm.locator(".range, .empty-section");
    const pmBefore = await pmText.textContent();
    if (counts.pm === 0) expect(pmBefore).toBe(`No PM BOMs found that use component: ${item}`);
    else expect(pmBefore).toBe(`1-${Math.min(WHERE_USED_PAGE_SIZE, counts.pm)} of ${counts.pm}`);
    await expect(pm.getByLabel("Jump To")).toHaveCount(counts.pm > WHERE_USED_PAGE_SIZE ? 1 : 0);

    // Export dropdown of the section.
    await asset.locator("details.menu > summary", { hasText: "Export" }).click();
    const exportLink = asset.getByRole("link", { name: `Export all ${Math.min(n, 1000)} Asset BOM records (CSV)` });
    await expect(exportLink).toBeVisible();
    await expect(exportLink).toHaveAttribute("href", `${whereUsedPath(item)}/export.csv?type=asset`);
    await asset.locator("details.menu > summary", { hasText: "Export" }).click();

    // Asset Number, the default order (ascending): its header turns it round.
    const ascending = await bomColumnTexts(asset, "Asset Number");
    expect(ascending).toEqual([...ascending].sort((a, b) => a.localeCompare(b)));
    await asset.getByRole("link", { name: "Asset Number", exact: true }).click();
    await expect(page).toHaveURL(urlWith(whereUsedPath(item), [["asset-sort", "asset_number desc"]]));
    await expect(asset.locator("th", { hasText: "Asset Number" })).toHaveAttribute("aria-sort", "descending");
    await expect(asset.locator("th[aria-sort]")).toHaveCount(1);
    const descending = await bomColumnTexts(asset, "Asset Number");
    expect(descending).toEqual([...descending].sort((a, b) => b.localeCompare(a)));
    // Descending starts with the largest asset number of all, ascending with the smallest.
    expect(descending[0]! >= ascending[ascending.length - 1]!).toBe(true);
    await expect(pmText).toHaveText(pmBefore!);

    // Page 2 of the asset section; the sort stays, the PM section stays where it was.
    await asset.getByRole("link", { name: "Asset BOM: page 2", exact: true }).click();
    await expect(page).toHaveURL(urlWith(whereUsedPath(item), [["asset-sort", "asset_number desc"], ["asset-page", "2"]]));
    await expect(asset.locator(".range")).toHaveText(`6-10 of ${n}`);
    await expect(asset.getByRole("link", { name: "Asset BOM: page 2", exact: true })).toHaveAttribute("aria-current", "page");
    const page2 = await bomColumnTexts(asset, "Asset Number");
    expect(page2[0]! <= descending[descending.length - 1]!, `page 2 continues the descending order: ${page2} after ${descending}`).toBe(true);
    await expect(pmText).toHaveText(pmBefore!);
    expect(new URL(page.url()).searchParams.has("pm-page")).toBe(false);

    // Jump To the last page.
    await asset.getByLabel("Jump To").fill(String(lastPage));
    await asset.getByRole("button", { name: "Go", exact: true }).click();
    await expect(page).toHaveURL(urlWith(whereUsedPath(item), [["asset-sort", "asset_number desc"], ["asset-page", String(lastPage)]]));
    await expect(asset.locator(".range")).toHaveText(`${(lastPage - 1) * WHERE_USED_PAGE_SIZE + 1}-${n} of ${n}`);
    await expect(pmText).toHaveText(pmBefore!);
  });

  test("an item used only in assets says so in the PM section, and the other way round", async ({ page, request }) => {
    const assetOnly = await findBomItem(request, (c) => c.asset > 0 && c.pm === 0, "is used only in asset BOMs");
    await page.goto(whereUsedPath(assetOnly.item));
    await expect(bomSection(page, "PM BOM")).toContainText(`No PM BOMs found that use component: ${assetOnly.item}`);
    await expect(bomSection(page, "PM BOM").locator("table")).toHaveCount(0);
    await expect(bomSection(page, "Asset BOM").locator(".range")).toHaveText(
      `1-${Math.min(WHERE_USED_PAGE_SIZE, assetOnly.counts.asset)} of ${assetOnly.counts.asset}`,
    );

    const pmOnly = await findBomItem(request, (c) => c.pm > 0 && c.asset === 0, "is used only in PM BOMs");
    await page.goto(whereUsedPath(pmOnly.item));
    await expect(bomSection(page, "Asset BOM")).toContainText(`No Asset BOMs found that use component: ${pmOnly.item}`);
    await expect(bomSection(page, "PM BOM").locator(".range")).toHaveText(
      `1-${Math.min(WHERE_USED_PAGE_SIZE, pmOnly.counts.pm)} of ${pmOnly.counts.pm}`,
    );
    await expect(bomSection(page, "PM BOM").locator("tbody > tr")).toHaveCount(Math.min(WHERE_USED_PAGE_SIZE, pmOnly.counts.pm));
  });
});

test.describe("BOM pages", () => {
  const bomPath = (prefix: string, item: string) => `/${prefix}/${encodeURIComponent(item)}`;

  test("an item's BOM page: BOM Details with Asset BOM, PM BOM and Other BOM Items, their ranges and the export", async ({ page, request }) => {
    const { item, counts } = await findBomItem(request, (c) => c.asset > 0 && c.other > 0, "is in an asset BOM and a tool's BOM");
    const response = await page.goto(bomPath("bom", item));
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe(bomPath("bom", item));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`BOM Details ${item}`);
    const records = counts.asset + counts.pm + counts.other;
    await expect(page.getByRole("link", { name: `Export BOM (${records} record${records === 1 ? "" : "s"})`, exact: true })).toHaveAttribute(
      "href",
      `${bomPath("bom", item)}/export.csv?type=all`,
    );
    const sections: [string, number, string][] = [
      ["Asset BOM", counts.asset, "No Asset BOM data found for this item"],
      ["PM BOM", counts.pm, "No PM BOM data found for this item"],
      ["Other BOM Items", counts.other, "No other BOM items for this item"],
    ];
    for (const [title, count, empty] of sections) {
      const section = bomSection(page, title);
      await expect(section.getByRole("heading", { name: title, exact: true })).toBeVisible();
      if (count === 0) {
        await expect(section).toContainText(empty);
        continue;
      }
      await expect(section.locator(".range"), title).toHaveText(`1-${Math.min(BOM_PAGE_SIZE, count)} of ${count}`);
      await expect(section.locator("tbody > tr"), title).toHaveCount(Math.min(BOM_PAGE_SIZE, count));
      await expect(section.locator("thead th")).toHaveText([/^Org Code/, /^Item Number/, /^Asset Number/, /^Asset Serial Number/, /^Asset Group/, /^Asset Description/]);
      expect(new Set(await bomColumnTexts(section, "Item Number")), title).toEqual(new Set([item]));
    }
    expect(new Set(await bomColumnTexts(bomSection(page, "Asset BOM"), "Asset Number")).size).toBeGreaterThan(0);
    for (const head of await bomColumnTexts(bomSection(page, "Asset BOM"), "Asset Number")) expect(counts.heads.asset).toContain(head);
  });

  test("an item in a tool's BOM: Where Used leads to its BOM page, whose Other BOM Items lists the tools, each leading to its lines", async ({ page, request }, testInfo) => {
    const { item, counts } = await findBomItem(request, (c) => c.other > 0, "is in a tool's BOM");
    await page.goto(whereUsedPath(item));
    const whereUsed = currentPath(page);
    const records = counts.asset + counts.pm + counts.other;
    await waitForReact(page, testInfo);
    await page.getByRole("link", { name: `View BOM (${records} record${records === 1 ? "" : "s"}, ${counts.other} in tools' BOMs)`, exact: true }).click();
    await expect(page).toHaveURL(urlWith(bomPath("bom", item), [["back", whereUsed]]));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`BOM Details ${item}`);
    await expect(page.getByRole("link", { name: "← Back to Where Used", exact: true })).toHaveAttribute("href", whereUsed);
    const other = bomSection(page, "Other BOM Items");
    await expect(other.locator(".range")).toHaveText(`1-${Math.min(BOM_PAGE_SIZE, counts.other)} of ${counts.other}`);
    const tools = await bomColumnTexts(other, "Asset Number");
    expect(new Set(tools)).toEqual(new Set(counts.heads.other.slice(0, BOM_PAGE_SIZE)));
    const bomPage = currentPath(page);
    await waitForReact(page, testInfo);
    await other.getByRole("link", { name: tools[0]!, exact: true }).click();
    await expect(page).toHaveURL(urlWith(bomPath("boms", tools[0]!), [["back", bomPage]]));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`BOM Lines ${tools[0]}`);
    await expect(page.locator("dl.head-facts")).toContainText("TypeTool");
    expect(await bomColumnTexts(bomSection(page, "Lines"), "Item Number")).toContain(item);
    await waitForReact(page, testInfo);
    await page.getByRole("link", { name: "← Back to BOM", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`BOM Details ${item}`);
  });

  test("an item used only in assets goes to /asset-bom, only in PM kits to /pm-bom", async ({ page, request }) => {
    for (const type of ["asset", "pm"] as const) {
      const { item, counts } = await findBomItem(request, (c) => c[type] > 0 && c.asset + c.pm + c.other === c[type], `is only in ${type} BOMs`);
      await page.goto(`${bomPath("bom", item)}?back=${encodeURIComponent(SEARCH_PATH)}`);
      await expect(page).toHaveURL(urlWith(bomPath(`${type}-bom`, item), [["back", SEARCH_PATH]]));
      const title = type === "asset" ? "Asset BOM" : "PM BOM";
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${title} ${item}`);
      const n = counts[type];
      await expect(page.getByRole("link", { name: `Export ${title} (${n} record${n === 1 ? "" : "s"})`, exact: true })).toHaveAttribute(
        "href",
        `${bomPath("bom", item)}/export.csv?type=${type}`,
      );
      await expect(bomSection(page, title).locator(".range")).toHaveText(`1-${Math.min(BOM_PAGE_SIZE, n)} of ${n}`);
      await expect(bomSection(page, type === "asset" ? "PM BOM" : "Asset BOM")).toHaveCount(0);
    }
  });

  test("an item in no BOM: 404 with the spec's message, Try Again and ← Back to Search", async ({ page, request, consoleErrors }) => {
    const unused = await findBomItem(request, (c) => c.asset + c.pm + c.other === 0, "is in no BOM");
    // The 404 is the page under test: the browser reports its status.
    consoleErrors.expect(statusError(404, bomPath("bom", unused.item)));
    expect((await page.goto(bomPath("bom", unused.item)))?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "No BOM data found for this item", exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "Try Again", exact: true })).toHaveAttribute("href", bomPath("bom", unused.item));
    await expect(page.getByRole("link", { name: "← Back to Search", exact: true })).toBeVisible();
  });
});

test.describe("a BOM's lines", () => {
  const linesPath = (head: string) => `/boms/${encodeURIComponent(head)}`;
  const lines = (page: Page) => bomSection(page, "Lines");

  test("each line with its part's description, quantity, unit, stock and locator, sortable by column", async ({ page, request }, testInfo) => {
    const { head, lines: exported } = await findBomHead(request, "asset", (l) => l.length > 3, "has more than three lines");
    const response = await page.goto(linesPath(head));
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`BOM Lines ${head}`);
    await expect(page.locator("dl.head-facts")).toContainText("TypeAsset");
    await expect(lines(page).locator(".range")).toHaveText(`1-${exported.length} of ${exported.length}`);
    await expect(lines(page).locator("thead th")).toHaveText([/^Item Number/, /^Description/, /^Quantity/, /^Unit/, /^In Stock/, /^Stock Locator/]);
    const items = await bomColumnTexts(lines(page), "Item Number");
    // Every part as the catalogue has it (the items' own API, not this page's export).
    const cells = {
      description: await bomColumnTexts(lines(page), "Description"),
      unit: await bomColumnTexts(lines(page), "Unit"),
      stock: await bomColumnTexts(lines(page), "In Stock"),
      locator: await bomColumnTexts(lines(page), "Stock Locator"),
    };
    for (const [i, item] of items.entries()) {
      const product = (await (await request.get(`/api/products/${encodeURIComponent(item)}`)).json()).data as Record<string, unknown>;
      const shown = (value: unknown) => (value === undefined || value === null || value === "" ? NULL_TEXT : String(value));
      expect(cells.description[i], item).toBe(shown(product.item_description_t));
      expect(cells.unit[i], item).toBe(shown(product.attribute_issue_uom_s));
      expect(cells.stock[i], item).toBe(shown(product.attribute_quantity_on_hand_i));
      expect(cells.locator[i], item).toBe(shown(product.attribute_stock_locator_s));
    }
    expect(await bomColumnTexts(lines(page), "Quantity")).toEqual(exported.map((l) => l.quantity || NULL_TEXT));

    // Sort by stock: ascending, then descending, as links (with or without JavaScript).
    const stockOf = async () => (await bomColumnTexts(lines(page), "In Stock")).filter((v) => v !== NULL_TEXT).map(Number);
    await waitForReact(page, testInfo);
    await lines(page).getByRole("link", { name: "In Stock", exact: true }).click();
    await expect(page).toHaveURL(urlWith(linesPath(head), [["sort", "stock asc"]]));
    await expect(lines(page).locator("th", { hasText: "In Stock" })).toHaveAttribute("aria-sort", "ascending");
    const ascending = await stockOf();
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    await waitForReact(page, testInfo);
    await lines(page).getByRole("link", { name: "In Stock", exact: true }).click();
    await expect(page).toHaveURL(urlWith(linesPath(head), [["sort", "stock desc"]]));
    await expect(lines(page).locator("th", { hasText: "In Stock" })).toHaveAttribute("aria-sort", "descending");
    const descending = await stockOf();
    expect(descending).toEqual([...ascending].sort((a, b) => b - a));
    await waitForReact(page, testInfo);
    await lines(page).getByRole("link", { name: "Description", exact: true }).click();
    await expect(page).toHaveURL(urlWith(linesPath(head), [["sort", "description asc"]]));
    const descriptions = (await bomColumnTexts(lines(page), "Description")).filter((v) => v !== NULL_TEXT);
    expect(descriptions).toEqual([...descriptions].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base", numeric: true })));
  });

  test("Where Used → a BOM's lines → a part → back to the lines → back to Where Used", async ({ page, request }, testInfo) => {
    const { item, counts } = await findBomItem(request, (c) => c.asset > 0, "is used in an asset BOM");
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    const search = currentPath(page);
    await page.goto(`${whereUsedPath(item)}?${new URLSearchParams({ back: search })}`);
    const whereUsed = currentPath(page);
    await waitForReact(page, testInfo);
    const head = (await bomColumnTexts(bomSection(page, "Asset BOM"), "Asset Number"))[0]!;
    expect(counts.heads.asset).toContain(head);
    await bomSection(page, "Asset BOM").getByRole("link", { name: head, exact: true }).first().click();

    await expect(page).toHaveURL(urlWith(linesPath(head), [["back", whereUsed]]));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`BOM Lines ${head}`);
    const items = await bomColumnTexts(lines(page), "Item Number");
    expect(items).toContain(item);
    await expect(page.getByRole("link", { name: "← Back to Search", exact: true })).toHaveAttribute("href", search);

    // A line's part opens its page, whose Back returns to these lines.
    const other = items.find((i) => i !== item) ?? item;
    await waitForReact(page, testInfo);
    await lines(page).getByRole("link", { name: other, exact: true }).click();
    await expect(productTitle(page)).toContainText(`(${other})`);
    await waitForReact(page, testInfo);
    await page.getByRole("link", { name: "← Back", exact: true }).click();
    await expect(page).toHaveURL(urlWith(linesPath(head), [["back", whereUsed]]));

    await waitForReact(page, testInfo);
    await page.getByRole("link", { name: "← Back to Where Used", exact: true }).click();
    await expect(page).toHaveURL(whereUsed);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Where Used: ${item}`);
  });

  test("a search for an asset's or a tool's number opens its lines; Back to Search shows the list", async ({ page, request }, testInfo) => {
    const asset = await findBomHead(request, "asset", (l) => l.length > 0, "has lines");
    const tool = await findBomHead(request, "other", (l) => l.length > 0, "has lines");
    for (const { head, lines: expected } of [asset, tool]) {
      await openSearch(page, testInfo, searchUrl({ q: "pump" }));
      await page.locator("#site-search").fill(head);
      await page.locator("#site-search").press("Enter");
      await expect(page).toHaveURL((u) => u.pathname === linesPath(head));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(`BOM Lines ${head}`);
      await expect(lines(page).locator(".range")).toHaveText(`1-${expected.length} of ${expected.length}`);
      await waitForReact(page, testInfo);
      await page.getByRole("link", { name: "← Back to Search", exact: true }).click();
      await expect(page).toHaveURL((u) => u.pathname === SEARCH_PATH && u.searchParams.get("q") === head);
      await expect(resultsHeading(page)).toBeVisible();
    }
  });

  test("a bookmark of a head's old BOM address leads to its lines; a number heading nothing is not found", async ({ page, request, consoleErrors }) => {
    // The head that heads nothing is opened on purpose: the browser reports the 404.
    consoleErrors.expect(statusError(404, linesPath("NO-SUCH-HEAD-1")));
    const { head, lines: expected } = await findBomHead(request, "pm", (l) => l.length > 0, "has lines");
    await page.goto(`/bom/${encodeURIComponent(head)}`);
    await expect(page).toHaveURL((u) => u.pathname === linesPath(head));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`BOM Lines ${head}`);
    await expect(page.locator("dl.head-facts")).toContainText("TypePM kit");
    await expect(lines(page).locator(".range")).toHaveText(`1-${expected.length} of ${expected.length}`);

    expect((await page.goto(linesPath("NO-SUCH-HEAD-1")))?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "BOM Not Found", exact: true })).toBeVisible();
    await expect(page.getByText("No BOM is headed by NO-SUCH-HEAD-1", { exact: true })).toBeVisible();
  });
});

test.describe("hostile item numbers in the path", () => {
  const SCRIPT = "<script>alert(1)</script>";

  // Statuses, escaping and the way back for every hostile path are the HTTP suite's
  // (tests/http/item-pages.test.ts); here, that markup from the path never runs.
  test("a script in the path of an item, Where Used or BOM page never runs", async ({ page, consoleErrors }) => {
    const dialogs = watchDialogs(page);
    for (const route of ["product", "where-used", "bom"]) {
      // No such item: the browser reports the page's 404 (or 400).
      consoleErrors.expect(new RegExp(`${statusError(404, `/${route}/${encodeURIComponent(SCRIPT)}`).source}|${statusError(400, `/${route}/${encodeURIComponent(SCRIPT)}`).source}`));
      const response = await page.goto(`/${route}/${encodeURIComponent(SCRIPT)}`);
      expect([400, 404], `/${route}/: status`).toContain(response?.status());
      await expect(page.locator("main script")).toHaveCount(0);
      await expect(page.getByRole("link", { name: "← Back to Search", exact: true }), route).toBeVisible();
    }
    expect(dialogs).toEqual([]);
  });

  test("a real item link round-trips its item number; a made-up one with / space # % ü is not found", async ({ page, consoleErrors }, testInfo) => {
    // The made-up item's pages are opened on purpose: the browser reports their 404s.
    for (const route of ["product", "where-used", "bom"]) consoleErrors.expect(statusError(404, `/${route}/${encodeURIComponent("A/B 1#%ü")}`));
    await openSearch(page, testInfo, searchUrl({ q: "pump", sort: "item_number desc" }));
    const items = await columnTexts(page, "Item Number");
    // Prefer an item number with characters that need care in a path.
    const index = Math.max(0, items.findIndex((i) => /[^A-Za-z0-9]/.test(i)));
    const item = items[index]!;
    const href = (await resultRows(page).nth(index).locator("a.row-link").getAttribute("href")) ?? "";
    expect(new URL(href, page.url()).pathname).toBe(productPath(item));
    await resultRows(page).nth(index).locator("a.row-link").click();
    await expect(productTitle(page)).toContainText(`(${item})`);
    expect(new Map(await specificationRows(page)).get("Item Number")).toBe(item);
    await waitForReact(page, testInfo);
    await page.getByRole("link", { name: "View Where Used", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Where Used: ${item}`);

    const madeUp = "A/B 1#%ü";
    const segment = encodeURIComponent(madeUp);
    const product = await page.goto(`/product/${segment}`);
    expect(product?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Product Not Found", exact: true })).toBeVisible();

    // Neither in the catalogue nor in any BOM: the item does not exist, and the page says so.
    const whereUsed = await page.goto(`/where-used/${segment}`);
    expect(whereUsed?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Item Not Found");
    await expect(page.getByText(`Item ${madeUp} does not exist`, { exact: true })).toBeVisible();

    const bom = await page.goto(`/bom/${segment}`);
    expect(bom?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "No BOM data found for this item", exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "Try Again", exact: true })).toHaveAttribute("href", `/bom/${segment}`);
  });
});

test("BOM counts found through the exports agree with the Where Used, BOM and BOM lines pages", async ({ page, request }) => {
  // Guards the test data helpers themselves: every count they read from an export is the one a page shows.
  const { item, counts } = await findBomItem(request, (c) => c.asset > 0 && c.pm > 0, "is in an asset BOM and a PM BOM");
  await page.goto(whereUsedPath(item));
  expect(await sectionTotal(page, "Asset BOM"), "Where Used: Asset BOM").toBe(counts.asset);
  expect(await sectionTotal(page, "PM BOM"), "Where Used: PM BOM").toBe(counts.pm);
  expect(await bomPageTotals(page, item)).toEqual(await bomCounts(request, item));
  for (const head of [counts.heads.asset[0]!, counts.heads.pm[0]!]) {
    await page.goto(`/boms/${encodeURIComponent(head)}`);
    expect(await sectionTotal(page, "Lines"), head).toBe((await headLines(request, head)).length);
  }
});
