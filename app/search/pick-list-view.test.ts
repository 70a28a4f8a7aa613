import { describe, expect, it } from "vitest";
import type { Doc } from "./engine";
import { buildPickList, inWalkingOrder, PICK_LIST_CAP, pickListParams, pickListRange, printedAtOf } from "./pick-list-view";
import { DEFAULT_SEARCH_CONFIG } from "./search-config";
import { EMPTY_STATE } from "./state";

const doc = (i: number): Doc => ({
  id: `d${i}`,
  item_number_s: `MRO-${1000 + i}`,
  item_description_t: `Pump seal ${i}`,
  attribute_stock_locator_s: `A-${i}-3`,
  attribute_subinventory_s: "CRIB1",
  attribute_quantity_on_hand_i: i,
  attribute_status_s: "Active",
});

describe("pick list", () => {
  it("says how much of the search the sheet holds", () => {
    expect(pickListRange(148, 148)).toBe("1–148 of 148");
    expect(pickListRange(500, 5000)).toBe("first 500 of 5,000");
    expect(pickListRange(0, 0)).toBe("0 of 0");
  });

  it("writes the locator first and every column a picker needs, N/A left to the page", () => {
    const state = { ...EMPTY_STATE, q: "pump", filters: [{ field: "category_s", value: "Pumps", type: "include" as const }] };
    const list = buildPickList({ state, config: DEFAULT_SEARCH_CONFIG, docs: [doc(1), { id: "x", item_number_s: "X-1" }], total: 2, now: new Date("2026-11-27T21:40:12Z"), order: "search" });
    expect(list.heading).toBe('2 results for "pump"');
    expect(list.refinement).toEqual(["Category is Pumps"]);
    expect(list.columns.map((c) => c.label)).toEqual(["Stock Locator", "Subinventory", "Item Number", "Item Description", "Quantity On Hand", "Issue UOM", "Status"]);
    expect(list.rows[0]).toEqual(["A-1-3", "CRIB1", "MRO-1001", "Pump seal 1", "1", "", "Active"]);
    expect(list.rows[1]).toEqual(["", "", "X-1", "", "", "", ""]);
    expect(list.backHref).toBe("/crib-search/search?q=pump&f=category%3APumps");
    expect(list.printedAt).toBe("2026-11-27 21:40 UTC");
  });

  it("stops at the cap", () => {
    const docs = Array.from({ length: PICK_LIST_CAP + 5 }, (_, i) => doc(i));
    const list = buildPickList({ state: EMPTY_STATE, config: DEFAULT_SEARCH_CONFIG, docs, total: 5000, now: new Date() });
    expect(list.rows).toHaveLength(PICK_LIST_CAP);
    expect(list.range).toBe("first 500 of 5,000");
    expect(printedAtOf(new Date("2026-01-02T03:04:05Z"))).toBe("2026-01-02 03:04 UTC");
  });

  it("walks the crib by default: by stock locator as people number aisles, then subinventory and item, the unplaced last", () => {
    const at = (item: string, locator: string | undefined, sub = "CRIB1"): Doc => ({ id: item, item_number_s: item, ...(locator ? { attribute_stock_locator_s: locator } : {}), attribute_subinventory_s: sub });
    const docs = [at("I-5", undefined), at("I-4", "A-10-01"), at("I-3", "A-2-01"), at("I-2", "a-2-01", "CRIB0"), at("I-1", "B-01-01"), at("I-0", "A-2-01")];
    expect(inWalkingOrder(docs).map((d) => d.id)).toEqual(["I-2", "I-0", "I-3", "I-4", "I-1", "I-5"]);
    const list = buildPickList({ state: { ...EMPTY_STATE, q: "pump" }, config: DEFAULT_SEARCH_CONFIG, docs, total: docs.length, now: new Date() });
    expect(list.order).toBe("walk");
    expect(list.items).toEqual(["I-2", "I-0", "I-3", "I-4", "I-1", "I-5"]);
    expect(list.rows.map((r) => r[0])).toEqual(["a-2-01", "A-2-01", "A-2-01", "A-10-01", "B-01-01", ""]);
    expect(list.otherOrder).toEqual({ label: "In the search's order", href: "/crib-search/pick-list?q=pump&order=search" });
  });

  it("puts an item whose locator field is there but blank with the unplaced, last, not among the N's", () => {
    const at = (item: string, locator: string | null): Doc => ({ id: item, item_number_s: item, attribute_stock_locator_s: locator, attribute_subinventory_s: "CRIB1" });
    const docs = [at("I-4", null), at("I-3", "  "), at("I-2", "Z-01-01"), at("I-1", "M-01-01"), at("I-0", "O-01-01")];
    expect(inWalkingOrder(docs).map((d) => d.id)).toEqual(["I-1", "I-0", "I-2", "I-3", "I-4"]);
    const list = buildPickList({ state: EMPTY_STATE, config: DEFAULT_SEARCH_CONFIG, docs, total: docs.length, now: new Date() });
    expect(list.rows.map((r) => r[0])).toEqual(["M-01-01", "O-01-01", "Z-01-01", "", ""]);
  });

  it("keeps the search's order when asked, and links back to walking order", () => {
    const docs = [doc(3), doc(1), doc(2)];
    const list = buildPickList({ state: EMPTY_STATE, config: DEFAULT_SEARCH_CONFIG, docs, total: 3, now: new Date(), order: "search" });
    expect(list.items).toEqual(["MRO-1003", "MRO-1001", "MRO-1002"]);
    expect(list.otherOrder.href).toBe("/crib-search/pick-list");
  });

  it("takes the search's parameters but its page and page size", () => {
    const state = { ...EMPTY_STATE, q: "seal", page: 3, rows: 50 as const };
    expect(pickListParams(state, DEFAULT_SEARCH_CONFIG).toString()).toBe("q=seal");
    expect(pickListParams(state, DEFAULT_SEARCH_CONFIG, "search").toString()).toBe("q=seal&order=search");
  });
});
