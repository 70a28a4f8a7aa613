/**
 * CSV export: the search page's Export menu and dialog, the downloads it starts (read back from
 * Chromium's download and parsed), the export limit, and the item, BOM and Where Used exports.
 * Each test runs with and without JavaScript, with the same assertions.
 *
 * Formula injection (cells starting with = + - @) cannot be seeded through the UI here: the sample
 * catalogue has no such values and the browser suite does not write to the catalogue. The unit
 * tests of the CSV writer and the export route tests cover it.
 */
import { readFile } from "node:fs/promises";
import type { Download, Locator, Page, TestInfo } from "@playwright/test";
import { expect, test } from "./fixtures";
import Papa from "papaparse";
import {
  apiSearch,
  bomPageTotals,
  columnTexts,
  currentPath,
  exportDates,
  findBomHead,
  findBomItem,
  headerSearch,
  isJs,
  openSearch,
  renderedText,
  resultRows,
  resultsHeading,
  SEARCH_PATH,
  searchUrl,
  shownTotal,
  urlWith,
  waitForHydration,
  waitForReact,
} from "./helpers";

/** EXPORT_LIMIT of the browser-test server (scripts/e2e-server.mjs). */
const EXPORT_LIMIT = 1000;
const PRESELECTED = 10;
const BOM_UTF8 = "\uFEFF";

function exportMenu(page: Page): Locator {
  return page.locator("details.export-menu");
}

function exportDialog(page: Page): Locator {
  return page.locator("dialog.export-dialog");
}

/** The dialog's export button: "Export CSV ({n} fields)" as text with JavaScript, "Export CSV" plus the stylesheet's count without. */
function exportButton(page: Page): Locator {
  return exportDialog(page).getByRole("button", { name: /^Export CSV/ });
}

/** The export button as it is drawn, the count the stylesheet writes without JavaScript included. */
async function expectButtonSays(page: Page, text: string): Promise<void> {
  await expect.poll(() => renderedText(page, "export-submit")).toBe(text);
}

async function openExportMenu(page: Page): Promise<Locator> {
  const menu = exportMenu(page);
  await menu.locator("summary", { hasText: "Export" }).click();
  await expect(menu).toHaveAttribute("open", "");
  return menu;
}

/** Opens the search, then the export dialog through the menu entry. */
async function openExportDialog(page: Page, testInfo: TestInfo, url: string, entry: "all" | "shown"): Promise<void> {
  await openSearch(page, testInfo, url);
  const menu = await openExportMenu(page);
  await menu.getByRole("link", { name: entry === "all" ? /^Export all results \(\d+\)$/ : /^Export shown results \(\d+\)$/ }).click();
  await expect(exportDialog(page).getByRole("heading", { name: "Export Search Results" })).toBeVisible();
  expect(currentParams(page).get("export")).toBe(entry === "all" ? "all" : "page");
  await waitForDialogReady(page, testInfo);
}

function currentParams(page: Page): URLSearchParams {
  return new URL(page.url()).searchParams;
}

/** With JavaScript the page hydrates before the dialog's buttons are used. */
async function waitForDialogReady(page: Page, testInfo: TestInfo): Promise<void> {
  await waitForHydration(page, testInfo);
}

interface Csv {
  raw: string;
  headers: string[];
  rows: Record<string, string>[];
}

async function readCsv(download: Download): Promise<Csv> {
  const path = await download.path();
  expect(path, "the download was saved").toBeTruthy();
  const raw = await readFile(path!, "utf8");
  const parsed = Papa.parse<Record<string, string>>(raw.replace(/^\uFEFF/, ""), { header: true, skipEmptyLines: true });
  expect(parsed.errors, "CSV parse errors").toEqual([]);
  return { raw, headers: parsed.meta.fields ?? [], rows: parsed.data };
}

/** Clicks `trigger` and returns the download it starts. */
async function downloadBy(page: Page, trigger: Locator): Promise<Download> {
  const [download] = await Promise.all([page.waitForEvent("download"), trigger.click()]);
  return download;
}

function checkboxes(page: Page): Locator {
  return exportDialog(page).getByRole("checkbox");
}

async function checkedLabels(page: Page): Promise<string[]> {
  return exportDialog(page)
    .locator(".field-grid label")
    .evaluateAll((labels) => labels.filter((l) => l.querySelector("input")?.checked).map((l) => (l.textContent ?? "").trim()));
}

async function apiProduct(page: Page, item: string): Promise<Record<string, unknown>> {
  const response = await page.request.get(`/api/products/${encodeURIComponent(item)}`);
  expect(response.status(), `GET /api/products/${item}`).toBe(200);
  return (await response.json()).data as Record<string, unknown>;
}

test.describe("export menu and dialog", () => {
  test("the Export menu offers all results and the shown results with their counts", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    const total = await shownTotal(page);
    const shown = await resultRows(page).count();
    const menu = exportMenu(page);
    await expect(menu.locator("summary")).toHaveText("Export");
    const menuBox = page.locator(".toolbar");
    await expect(menuBox.locator("details.export-menu")).toHaveCount(1);
    await openExportMenu(page);
    await expect(menu.getByRole("link")).toHaveText([`Export all results (${total})`, `Export shown results (${shown})`]);
  });

  test("the dialog shows count and query, ten preselected fields, Select All/None, file name and preview", async ({ page }, testInfo) => {
    const url = searchUrl({ q: "pump" });
    await openExportDialog(page, testInfo, url, "all");
    const total = (await apiSearch(page.request, { q: "pump", rows: 0 })).numFound;
    const dialog = exportDialog(page);

    await expect(dialog).toContainText(`${total} results for "pump"`);
    const all = await checkboxes(page).count();
    expect(all).toBeGreaterThan(PRESELECTED);
    await expect(dialog.locator('input[type="checkbox"]:checked')).toHaveCount(PRESELECTED);
    // The first ten are the preselected ones.
    for (let i = 0; i < all; i++) {
      if (i < PRESELECTED) await expect(checkboxes(page).nth(i)).toBeChecked();
      else await expect(checkboxes(page).nth(i)).not.toBeChecked();
    }
    await expectButtonSays(page, `Export CSV (${PRESELECTED} fields)`);
    await expect(exportButton(page)).toBeEnabled();
    await expect(dialog.getByLabel("File name (optional)")).toHaveAttribute("placeholder", "search-results.csv");
    await expect(dialog.getByLabel("File name (optional)")).toHaveValue("");

    // Preview: the chosen fields as headers, three rows, short cells.
    await expect(dialog.getByRole("heading", { name: `Preview (first 3 of ${total} rows)` })).toBeVisible();
    const preview = dialog.locator("section.preview table");
    await expect(preview.locator("thead th:visible")).toHaveText(await checkedLabels(page));
    await expect(preview.locator("tbody tr")).toHaveCount(3);
    for (const cell of await preview.locator("tbody td").allTextContents()) expect(Array.from(cell).length).toBeLessThanOrEqual(30);

    await dialog.getByRole("button", { name: "Select All", exact: true }).click();
    await expect(dialog.locator('input[type="checkbox"]:checked')).toHaveCount(all);
    await expectButtonSays(page, `Export CSV (${all} fields)`);
    await expect(dialog.getByRole("heading", { name: "Export Search Results" })).toBeVisible();

    await dialog.getByRole("button", { name: "Select None", exact: true }).click();
    await expect(dialog.locator('input[type="checkbox"]:checked')).toHaveCount(0);
    await expectButtonSays(page, "Export CSV (0 fields)");
    if (isJs(testInfo)) {
      await expect(exportButton(page)).toBeDisabled();
    } else {
      // Without JavaScript the server answers a zero-field export with the dialog and a message.
      await exportButton(page).click();
      await expect(dialog.getByRole("alert")).toHaveText("Export validation failed: Select at least one field to export");
      await expect(dialog.locator('input[type="checkbox"]:checked')).toHaveCount(0);
    }

    await dialog.getByRole("link", { name: "Cancel", exact: true }).click();
    await expect(exportDialog(page)).toHaveCount(0);
    await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"]]));
    expect(currentPath(page)).toBe(url);
    await expect(resultsHeading(page)).toHaveText(`${total} results for "pump"`);
  });

  test("unticking every field by hand cannot export: disabled with JavaScript, a message without", async ({ page }, testInfo) => {
    await openExportDialog(page, testInfo, searchUrl({ q: "pump" }), "all");
    const dialog = exportDialog(page);
    const ticked = dialog.locator('input[type="checkbox"]:checked');
    while ((await ticked.count()) > 0) await ticked.first().uncheck();
    await expectButtonSays(page, "Export CSV (0 fields)");
    if (isJs(testInfo)) {
      await expect(exportButton(page)).toBeDisabled();
      return;
    }
    // Without JavaScript the button cannot be disabled; submitting must not export.
    let downloaded = false;
    page.on("download", () => {
      downloaded = true;
    });
    await exportButton(page).click();
    await expect(dialog.getByRole("alert")).toHaveText("Export validation failed: Select at least one field to export");
    expect(downloaded, "no file is downloaded without fields").toBe(false);
  });

  test("long preview cells are cut to 30 characters with an ellipsis", async ({ page, request }, testInfo) => {
    const docs = (await apiSearch(request, { rows: 100 })).docs;
    const doc = docs.find((d) => typeof d.item_description_t === "string" && Array.from(d.item_description_t as string).length > 30);
    expect(doc, "an item with a description over 30 characters").toBeDefined();
    const item = String(doc!.item_number_s);
    const description = String(doc!.item_description_t);

    await openSearch(page, testInfo, searchUrl({ q: item, export: "all" }));
    const preview = exportDialog(page).locator("section.preview table");
    const headers = await preview.locator("thead th").allTextContents();
    const rows = await preview.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent ?? "")));
    const row = rows.find((r) => r[headers.indexOf("Item Number")] === item);
    expect(row, `preview row of ${item}`).toBeDefined();
    const cell = row![headers.indexOf("Item Description")]!;
    expect(Array.from(cell).length).toBeLessThanOrEqual(30);
    expect(cell.endsWith("…"), `"${cell}" ends with …`).toBe(true);
    expect(description.startsWith(cell.slice(0, -1).trimEnd())).toBe(true);
  });

  test("a search without results: the dialog says there is no data", async ({ page, request }, testInfo) => {
    const q = "qzxjvwkq";
    expect((await apiSearch(request, { q, rows: 0 })).numFound).toBe(0);
    await openSearch(page, testInfo, searchUrl({ q }));
    await expect(exportMenu(page)).toHaveCount(0);
    await openSearch(page, testInfo, searchUrl({ q, export: "all" }));
    await expect(exportDialog(page)).toContainText("No data available for export");
    await expect(exportButton(page)).toBeDisabled();
  });
});

test.describe("downloads", () => {
  test("Export all results downloads every result as CSV, named all-results-{date}.csv", async ({ page, request }, testInfo) => {
    const pump = await apiSearch(request, { q: "pump", rows: 0 });
    expect(pump.numFound).toBeGreaterThan(0);
    expect(pump.numFound).toBeLessThan(EXPORT_LIMIT);
    await openExportDialog(page, testInfo, searchUrl({ q: "pump" }), "all");
    const labels = await checkedLabels(page);
    expect(labels).toHaveLength(PRESELECTED);

    const download = await downloadBy(page, exportButton(page));
    expect(exportDates().map((d) => `all-results-${d}.csv`)).toContain(download.suggestedFilename());
    const csv = await readCsv(download);
    expect(csv.raw.startsWith(BOM_UTF8), "starts with the UTF-8 byte-order mark").toBe(true);
    expect(csv.headers).toEqual(labels);
    expect(csv.rows).toHaveLength(pump.numFound);

    // A few cells against the API's values.
    for (const row of [csv.rows[0]!, csv.rows[Math.floor(csv.rows.length / 2)]!, csv.rows[csv.rows.length - 1]!]) {
      const product = await apiProduct(page, row["Item Number"]!);
      expect(row["Org Code"]).toBe(String(product.org_code_s));
      expect(row["Item Description"]).toBe(String(product.item_description_t));
      expect(row["Status"]).toBe(String(product.attribute_status_s));
      expect(row["Quantity On Hand"]).toBe(String(product.attribute_quantity_on_hand_i));
    }
    const items = new Set(csv.rows.map((r) => r["Item Number"]));
    expect(items.size, "no duplicate rows").toBe(pump.numFound);
  });

  test("a custom file name is used: My Report → my-report.csv, with the chosen fields only", async ({ page }, testInfo) => {
    await openExportDialog(page, testInfo, searchUrl({ q: "pump" }), "all");
    const dialog = exportDialog(page);
    await dialog.getByRole("button", { name: "Select None", exact: true }).click();
    await expect(dialog.locator('input[type="checkbox"]:checked')).toHaveCount(0);
    await dialog.getByRole("checkbox", { name: "Item Number", exact: true }).check();
    await dialog.getByRole("checkbox", { name: "Category", exact: true }).check();
    await expectButtonSays(page, "Export CSV (2 fields)");
    await dialog.getByLabel("File name (optional)").fill("  My Report  ");

    const download = await downloadBy(page, exportButton(page));
    expect(download.suggestedFilename()).toBe("my-report.csv");
    const csv = await readCsv(download);
    expect(csv.headers).toEqual(["Item Number", "Category"]);
    expect(csv.rows.length).toBe((await apiSearch(page.request, { q: "pump", rows: 0 })).numFound);
  });

  test("Enter in the file name field exports (it does not press Select All)", async ({ page }, testInfo) => {
    await openExportDialog(page, testInfo, searchUrl({ q: "pump" }), "all");
    const box = exportDialog(page).getByLabel("File name (optional)");
    await box.fill("Enter Report");
    const [download] = await Promise.all([page.waitForEvent("download"), box.press("Enter")]);
    expect(download.suggestedFilename()).toBe("enter-report.csv");
    const csv = await readCsv(download);
    expect(csv.headers).toHaveLength(PRESELECTED);
  });

  test("Export shown results downloads exactly the rows of the current page", async ({ page }, testInfo) => {
    const url = searchUrl({ q: "pump", sort: "item_number asc", page: 2 });
    await openSearch(page, testInfo, url);
    const shownItems = await columnTexts(page, "Item Number");
    expect(shownItems.length).toBe(20);
    await openExportDialog(page, testInfo, url, "shown");
    await expect(exportDialog(page)).toContainText(`${shownItems.length} results for "pump" on this page`);

    const download = await downloadBy(page, exportButton(page));
    const csv = await readCsv(download);
    expect(csv.rows.map((r) => r["Item Number"])).toEqual(shownItems);
  });
});

test.describe("export limit", () => {
  test("exporting all 5,000 results asks first; Continue Export downloads the first 1000", async ({ page, request }, testInfo) => {
    const total = (await apiSearch(request, { rows: 0 })).numFound;
    expect(total).toBeGreaterThan(EXPORT_LIMIT);
    await openExportDialog(page, testInfo, SEARCH_PATH, "all");
    await expect(exportDialog(page)).toContainText(`${total} results`);
    // Said before the download, not found out from the file.
    const truncation = `${EXPORT_LIMIT.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} records will be exported.`;
    await expect(exportDialog(page).getByText(truncation).first()).toBeVisible();
    await exportButton(page).click();

    const dialog = exportDialog(page);
    await expect(dialog.getByRole("heading", { name: "Export Limit", exact: true })).toBeVisible();
    await expect(dialog.locator("#limit-text")).toHaveText(
      `You are trying to export ${total} results, but the maximum export limit is ${EXPORT_LIMIT} records. Do you want to continue?`,
    );
    await expect(dialog.getByRole("link", { name: "Cancel", exact: true })).toBeVisible();
    await expect(dialog.getByText(truncation).first()).toBeVisible();

    const download = await downloadBy(page, dialog.getByRole("link", { name: "Continue Export", exact: true }));
    expect(exportDates().map((d) => `all-results-${d}.csv`)).toContain(download.suggestedFilename());
    const csv = await readCsv(download);
    expect(csv.raw.startsWith(BOM_UTF8)).toBe(true);
    expect(csv.rows).toHaveLength(EXPORT_LIMIT);
  });

  test("choices made before the limit question are kept: fields and file name", async ({ page }, testInfo) => {
    await openExportDialog(page, testInfo, SEARCH_PATH, "all");
    const dialog = exportDialog(page);
    await dialog.getByRole("checkbox", { name: "Org Code", exact: true }).uncheck();
    await dialog.getByLabel("File name (optional)").fill("Limited Report");
    await exportButton(page).click();
    await expect(dialog.getByRole("heading", { name: "Export Limit", exact: true })).toBeVisible();

    const download = await downloadBy(page, dialog.getByRole("link", { name: "Continue Export", exact: true }));
    expect(download.suggestedFilename()).toBe("limited-report.csv");
    const csv = await readCsv(download);
    expect(csv.headers).toHaveLength(PRESELECTED - 1);
    expect(csv.headers).not.toContain("Org Code");
    expect(csv.rows).toHaveLength(EXPORT_LIMIT);
  });

  test("Cancel on the limit question returns to the search without export parameters", async ({ page }, testInfo) => {
    await openExportDialog(page, testInfo, SEARCH_PATH, "all");
    await exportButton(page).click();
    const dialog = exportDialog(page);
    await expect(dialog.getByRole("heading", { name: "Export Limit", exact: true })).toBeVisible();
    await dialog.getByRole("link", { name: "Cancel", exact: true }).click();
    await expect(exportDialog(page)).toHaveCount(0);
    await expect(page).toHaveURL(urlWith(SEARCH_PATH));
    await expect(resultsHeading(page)).toHaveText(/^\d+ results$/);
  });
});

test.describe("item, BOM and Where Used exports", () => {
  function expectAttachment(disposition: string | undefined, filename: string) {
    expect(disposition, "Content-Disposition").toBeTruthy();
    expect(disposition).toContain("attachment");
    expect(disposition).toContain(`filename="${filename}"`);
    // The exact name in RFC 5987 form too, whenever it is not plain ASCII.
    if (!/^[\x20-\x7E]*$/.test(filename)) expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent(filename)}`);
  }
  function parse(body: string) {
    expect(body.startsWith(BOM_UTF8)).toBe(true);
    const parsed = Papa.parse<Record<string, string>>(body.slice(1), { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    return { headers: parsed.meta.fields ?? [], rows: parsed.data };
  }
  const filenameOf = (disposition: string | undefined) => /filename="([^"]+)"/.exec(disposition ?? "")?.[1] ?? "";
  const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

  test("the item page's Export: one row, product-{item}-{date}.csv", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    const item = (await columnTexts(page, "Item Number"))[0]!;
    await resultRows(page).first().locator("a.row-link").click();
    // The button says how many fields the file holds.
    const button = page.getByRole("link", { name: /^Export \(\d+ fields\)$/ });
    const fields = Number(/\d+/.exec((await button.textContent()) ?? "")?.[0]);
    const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
    const downloaded = new URL(download.url());
    const href = `${downloaded.pathname}${downloaded.search}`;
    expect(href).toMatch(/^\/product\/[^/]+\/export\.csv/);
    // After the export the header's box has the focus, not Export: a scan's Enter searches, it does not export again.
    await expect(headerSearch(page)).toBeFocused();
    await expect(button).not.toBeFocused();

    const response = await page.request.get(href!);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("text/csv");
    const disposition = response.headers()["content-disposition"];
    const name = filenameOf(disposition);
    expect(exportDates().map((d) => `product-${slug(item)}-${d}.csv`)).toContain(name);
    expect(name).toBe(name.toLowerCase());
    expectAttachment(disposition, name);
    const csv = parse(await response.text());
    expect(csv.rows).toHaveLength(1);
    expect(Object.keys(csv.rows[0]!)).toHaveLength(fields);
    const product = await apiProduct(page, item);
    expect(csv.rows[0]!["Item Number"]).toBe(item);
    expect(csv.rows[0]!["Org Code"]).toBe(String(product.org_code_s));
  });

  test("BOM export: every BOM record of the item with its type, bom-{item}-{date}.csv", async ({ page, request }) => {
    const { item } = await findBomItem(request, (c) => c.asset > 0 && c.pm + c.other > 0, "is in an asset BOM and another");
    const response = await page.request.get(`/bom/${encodeURIComponent(item)}/export.csv?type=all`);
    expect(response.status()).toBe(200);
    const disposition = response.headers()["content-disposition"];
    const name = filenameOf(disposition);
    expect(exportDates().map((d) => `bom-${slug(item)}-${d}.csv`)).toContain(name);
    expectAttachment(disposition, name);
    const csv = parse(await response.text());
    expect(csv.headers).toEqual(["Type", "Org Code", "Item Number", "Asset Number", "Asset Serial Number", "Asset Group", "Asset Description"]);
    // The counts come from the BOM page, not from this export, so a record lost or doubled shows.
    const shown = await bomPageTotals(page, item);
    const typeCounts = { asset: 0, pm: 0, other: 0 };
    for (const row of csv.rows) typeCounts[row.Type as keyof typeof typeCounts]++;
    expect(typeCounts).toEqual(shown);
    expect(csv.rows.every((r) => r["Item Number"] === item)).toBe(true);

    // The typed exports hold only their type.
    const assets = parse(await (await page.request.get(`/bom/${encodeURIComponent(item)}/export.csv?type=asset`)).text());
    const heads = (rows: Record<string, string>[]) => rows.map((r) => r["Asset Number"]).sort();
    expect(heads(assets.rows)).toEqual(heads(csv.rows.filter((r) => r.Type === "asset")));
  });

  test("BOM lines export: each line with its part, in the page's order, bom-lines-{head}-{date}.csv", async ({ page, request }, testInfo) => {
    const { head } = await findBomHead(request, "asset", (lines) => lines.length > 2, "has more than two lines");
    await page.goto(`/boms/${encodeURIComponent(head)}`);
    await waitForReact(page, testInfo);
    await page.getByRole("link", { name: "In Stock", exact: true }).click();
    await expect(page).toHaveURL((u) => u.searchParams.get("sort") === "stock asc");
    const link = page.getByRole("link", { name: /^Export BOM Lines \(\d+ lines?\)$/ });
    await expect(link).toHaveAttribute("href", `/boms/${encodeURIComponent(head)}/export.csv?sort=stock+asc`);
    const response = await page.request.get((await link.getAttribute("href"))!);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("text/csv; charset=utf-8");
    const name = filenameOf(response.headers()["content-disposition"]);
    expect(exportDates().map((d) => `bom-lines-${slug(head)}-${d}.csv`)).toContain(name);
    const csv = parse(await response.text());
    expect(csv.headers).toEqual(["Item Number", "Description", "Quantity", "Unit", "In Stock", "Stock Locator"]);
    // The file is the table, row for row and cell for cell (N/A on the page is an empty cell).
    const table = await page.locator("table.bom-table tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => (td.textContent ?? "").trim())));
    expect(csv.rows.map((r) => csv.headers.map((h) => r[h] || "N/A"))).toEqual(table);
  });
});
