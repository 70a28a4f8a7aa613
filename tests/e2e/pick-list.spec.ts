/**
 * The pick list as a picker walks with it, with JavaScript and without: every row of the search
 * in the order of the crib's aisles (by stock locator), one line per item on a 320 px phone with a
 * box to tick there, and compact on paper (148 rows on at most 4 A4 sheets).
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { apiSearch, searchUrl } from "./helpers";

const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

/** The rows' stock locators, in the order shown. */
const locators = (page: Page) => page.locator(".pick-list-table tbody td.c-stock_locator").allTextContents();

/** A search of about 150 items: the size the shop floor prints. */
async function aListOfAboutOneHundredFifty(request: Parameters<typeof apiSearch>[0]): Promise<{ q: string; total: number }> {
  for (const q of ["pump", "seal", "valve", "bearing", "filter", "motor", "belt"]) {
    const { numFound: total } = await apiSearch(request, { q, rows: 0 });
    if (total >= 100 && total <= 250) return { q, total };
  }
  const { numFound: total } = await apiSearch(request, { q: "pump", rows: 0 });
  return { q: "pump", total };
}

test("prints every row of the search in walking order, and the search's order on request", async ({ page, request }) => {
  const { q, total } = await aListOfAboutOneHundredFifty(request);
  await page.goto(searchUrl({ q }));
  await page.getByRole("link", { name: "Print list" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Pick list: ${total} results for "${q}"`);
  await expect(page.locator(".pick-list-order")).toHaveText("in walking order (by stock locator)");
  await expect(page.locator(".pick-list-table tbody tr")).toHaveCount(Math.min(total, 500));
  const walked = (await locators(page)).map((l) => (l === "N/A" ? "" : l));
  const placed = walked.filter(Boolean);
  expect(placed).toEqual([...placed].sort(collator.compare));
  // Items without a locator come last.
  expect(walked.slice(placed.length).every((l) => l === "")).toBe(true);

  await page.getByRole("link", { name: "In the search's order" }).click();
  await expect(page.locator(".pick-list-order")).toHaveText("in the search's order");
  const searchOrder = await page.locator(".pick-list-table tbody td.c-item_number").allTextContents();
  const first = await apiSearch(request, { q, rows: 5 });
  expect(searchOrder.slice(0, 5)).toEqual(first.docs.map((d) => String(d.item_number_s)));
});

test("at 320 px: one line per item, nothing wider than the phone, a box to tick on each", async ({ page, request }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  const { q } = await aListOfAboutOneHundredFifty(request);
  await page.goto(`/crib-search/pick-list?q=${q}`);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(320);
  const rows = page.locator(".pick-list-table tbody tr");
  const heights = await rows.evaluateAll((trs) => trs.slice(0, 40).map((tr) => tr.getBoundingClientRect().height));
  // One line of 16 px text and its padding, or the 24 px box: never two lines.
  expect(Math.max(...heights)).toBeLessThan(44);
  const box = rows.first().getByRole("checkbox");
  const size = await box.boundingBox();
  expect(size!.width).toBeGreaterThanOrEqual(24);
  expect(size!.height).toBeGreaterThanOrEqual(24);
  await box.click();
  await expect(box).toBeChecked();
  const fontSize = await rows.first().locator("td.c-item_number").evaluate((td) => parseFloat(getComputedStyle(td).fontSize));
  expect(fontSize).toBeGreaterThanOrEqual(16);
});

test("on paper: 148 rows on at most 4 A4 sheets, a box on every line", async ({ page, request }) => {
  const { q, total } = await aListOfAboutOneHundredFifty(request);
  await page.goto(`/crib-search/pick-list?q=${q}`);
  await page.emulateMedia({ media: "print" });
  await expect(page.locator(".pick-list-table tbody tr .c-picked input").first()).toBeVisible();
  const pdf = await page.pdf({ format: "A4", printBackground: false });
  const sheets = (pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? []).length;
  const rows = Math.min(total, 500);
  console.log(`[pick list] ${rows} rows on ${sheets} A4 sheets (${(rows / sheets).toFixed(0)} a sheet)`);
  expect(sheets).toBeGreaterThan(0);
  // The aim: 148 rows on 4 sheets, 37 a sheet.
  expect(sheets).toBeLessThanOrEqual(Math.ceil(rows / 37));
});
