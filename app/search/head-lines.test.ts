import { describe, expect, it } from "vitest";
import type { BomDoc, Doc } from "./engine";
import { generateBoms, generateItems } from "./engines/embedded/sample-data";
import { buildHeadLinesView, HEAD_LINES_PAGE_SIZE, headSummaryOf, joinLines, parseLinesSort, sortLines, type HeadLine } from "./head-lines";

const record = (item_number: string, quantity: number | null = 1): BomDoc => ({
  id: `AST-1-${item_number}`,
  type: "asset",
  org_code: "LOU",
  item_number,
  asset_number: "AST-1",
  asset_serial_number: "SN1",
  asset_group: "Line 1",
  asset_description: "Press 1",
  quantity,
});
const item = (itemNumber: string, fields: Record<string, string | number> = {}): Doc => ({ id: itemNumber, item_number_s: itemNumber, ...fields });
const line = (item_number: string, fields: Partial<HeadLine> = {}): HeadLine => ({
  item_number,
  description: null,
  quantity: null,
  unit: null,
  stock: null,
  locator: null,
  ...fields,
});

describe("joinLines", () => {
  it("joins each record with its part by item number, case and separators ignored, in the BOM's order", () => {
    const lines = joinLines(
      [record("WR-55", 2), record("missing", null), record("ab12")],
      [
        item("AB12", { item_description_t: "Belt", attribute_issue_uom_s: "EA", attribute_quantity_on_hand_i: 0, attribute_stock_locator_s: "A-1" }),
        item("wr55", { item_description_t: "Pump", attribute_issue_uom_s: "FT", attribute_quantity_on_hand_i: 7 }),
      ],
    );
    expect(lines).toEqual([
      { item_number: "WR-55", description: "Pump", quantity: 2, unit: "FT", stock: 7, locator: null },
      { item_number: "missing", description: null, quantity: null, unit: null, stock: null, locator: null },
      { item_number: "ab12", description: "Belt", quantity: 1, unit: "EA", stock: 0, locator: "A-1" },
    ]);
  });

  it("gives every line of the sample's BOMs its item's fields (the generator as the oracle)", () => {
    const items = [...generateItems(300)];
    const records = [...generateBoms(300)].filter((r) => r.asset_number === "AST-00001");
    expect(records.length).toBeGreaterThan(0);
    const lines = joinLines(records, items);
    for (const [i, l] of lines.entries()) {
      const part = items.find((d) => d.item_number_s === records[i]!.item_number)!;
      expect(l.description).toBe(part.item_description_t ?? null);
      expect(l.stock).toBe(part.attribute_quantity_on_hand_i ?? null);
      expect(l.locator).toBe(part.attribute_stock_locator_s ?? null);
      expect(l.quantity).toBe(records[i]!.quantity);
    }
  });
});

describe("parseLinesSort and sortLines", () => {
  it("reads `<column> asc|desc` and refuses anything else", () => {
    expect(parseLinesSort("stock desc")).toEqual({ field: "stock", direction: "desc" });
    expect(parseLinesSort(" description asc ")).toEqual({ field: "description", direction: "asc" });
    for (const bad of [null, "", "stock", "price asc", "stock up", "item_number asc; drop"]) expect(parseLinesSort(bad)).toBeNull();
  });

  it("sorts numbers as numbers and text without case, empty cells last both ways, ties in the BOM's order", () => {
    const lines = [line("a", { stock: 10, description: "b" }), line("b", { stock: null, description: "A" }), line("c", { stock: 9, description: null }), line("d", { stock: 10, description: "c" })];
    expect(sortLines(lines, { field: "stock", direction: "asc" }).map((l) => l.item_number)).toEqual(["c", "a", "d", "b"]);
    expect(sortLines(lines, { field: "stock", direction: "desc" }).map((l) => l.item_number)).toEqual(["a", "d", "c", "b"]);
    expect(sortLines(lines, { field: "description", direction: "asc" }).map((l) => l.item_number)).toEqual(["b", "a", "d", "c"]);
    expect(sortLines(lines, null).map((l) => l.item_number)).toEqual(["a", "b", "c", "d"]);
  });
});

describe("buildHeadLinesView", () => {
  const lines = Array.from({ length: HEAD_LINES_PAGE_SIZE + 5 }, (_, i) => line(`P-${i}`, { stock: i }));

  it("pages the sorted lines, links each item back here, and builds sort links that toggle", () => {
    const view = buildHeadLinesView({ head: "AST 1/2", lines, total: lines.length, params: new URLSearchParams("sort=stock desc&page=2&back=/x") });
    expect(view.range).toBe(`${HEAD_LINES_PAGE_SIZE + 1}-${lines.length} of ${lines.length}`);
    expect(view.rows.map((r) => r.item_number)).toEqual(["P-4", "P-3", "P-2", "P-1", "P-0"]);
    const self = "/boms/AST%201%2F2?back=%2Fx&sort=stock+desc&page=2";
    expect(view.rows[0]!.itemHref).toBe(`/product/P-4?back=${encodeURIComponent(self)}`);
    const stock = view.columns.find((c) => c.field === "stock")!;
    expect(stock.sorted).toBe("desc");
    expect(stock.sortHref).toBe("/boms/AST%201%2F2?back=%2Fx&sort=stock+asc");
    expect(view.columns.find((c) => c.field === "unit")!.sortHref).toBe("/boms/AST%201%2F2?back=%2Fx&sort=unit+asc");
    expect(view.pager.prev).toBe("/boms/AST%201%2F2?back=%2Fx&sort=stock+desc");
    expect(view.exportHref).toBe("/boms/AST%201%2F2/export.csv?sort=stock+desc");
    expect(view.truncated).toBe(false);
  });

  it("answers a page past the end with the last, and says when a BOM has more lines than were read", () => {
    const view = buildHeadLinesView({ head: "H", lines, total: 5000, params: new URLSearchParams("page=99&sort=bogus") });
    expect(view.pager.page).toBe(2);
    expect(view.sort).toBeNull();
    expect(view.truncated).toBe(true);
    expect(view.read).toBe(lines.length);
    expect(view.exportHref).toBe("/boms/H/export.csv");
  });
});

it("headSummaryOf takes the head's facts from its records", () => {
  expect(headSummaryOf("ast-1", [{ ...record("x"), asset_group: null }, record("y")])).toEqual({
    number: "AST-1",
    type: "asset",
    description: "Press 1",
    group: "Line 1",
    serial: "SN1",
    orgCode: "LOU",
  });
});
