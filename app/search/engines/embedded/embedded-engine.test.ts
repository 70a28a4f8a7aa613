import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import type { BomDoc, Doc, SearchRequest } from "../../engine";
import { BELOW_MINIMUM, STOCK_LEVEL_FIELD } from "../../catalog-fields";
import { HL_POST, HL_PRE } from "../../engine";
import { CatalogWriter } from "./catalog-writer.server";
import { EmbeddedEngine } from "./embedded-engine.server";

const FACETS = ["org_code_s", "category_s", "attribute_status_s"];

function item(n: number, fields: Partial<Doc>): Doc {
  return { id: `ID-${n}`, item_number_s: `IT${String(n).padStart(4, "0")}`, ...fields } as Doc;
}

const ITEMS: Doc[] = [
  item(1, { item_number_s: "WR55X10942", item_description_t: "Fresh Food Thermistor Sensor", org_code_s: "LOU", category_s: "Sensors", attribute_status_s: "Active", attribute_quantity_on_hand_i: 5, attribute_org_min_stock_level_i: 10 }),
  item(2, { item_number_s: "WR55X10943", item_description_t: "Freezer Thermistor", org_code_s: "SEL", category_s: "Sensors", attribute_status_s: "Inactive", attribute_quantity_on_hand_i: 0, attribute_org_min_stock_level_i: 1 }),
  item(3, { item_number_s: "WD12X10304", item_description_t: "Drain Pump Assembly 120V", org_code_s: "LOU", category_s: "Pumps", attribute_status_s: "Active", attribute_quantity_on_hand_i: 12, attribute_org_min_stock_level_i: 12 }),
  item(4, { item_number_s: "WH23X10030", item_description_t: "Drain Hose", org_code_s: "DEC", category_s: "Hoses", attribute_status_s: "Active", attribute_org_min_stock_level_i: 3 }),
  item(5, { item_number_s: "DA97-07365A", item_description_t: "Ice Maker Assembly", org_code_s: "LOU", category_s: "Assemblies", attribute_status_s: "Obsolete - Inactive", attribute_quantity_on_hand_i: 3, manufacturer_s: "Samsung" }),
  item(6, { item_number_s: "W10295370", item_description_t: "Water Filter <b>bold</b>", org_code_s: "SEL", category_s: "Filters", attribute_status_s: "Active", attribute_quantity_on_hand_i: 40, attribute_supplier_part_number_s: "SUP-778812" }),
  item(7, { item_number_s: "WB44T10011", item_description_t: "Bake Element", org_code_s: "DEC", category_s: "Heating Elements", attribute_status_s: "Active", attribute_quantity_on_hand_i: 5 }),
  item(8, { item_number_s: "wb44t10012", item_description_t: "broil element", category_s: "Heating Elements", attribute_status_s: "Active" }),
];

/** Items for the forgiving search: part numbers as written, lamps and ovens. */
const FORGIVING: Doc[] = [
  ...ITEMS,
  item(9, { item_number_s: "MRO-8595736", item_description_t: "Wall Oven Lamp", attribute_manufacturer_part_number_s: "DC63 17530B" }),
  item(10, { item_number_s: "WB25X10030", item_description_t: "Oven Lamp Socket", attribute_alternate_manufacturer_part_number_s: "MRO8595736" }),
  item(11, { item_number_s: "WB02X10011", item_description_t: "Oven Racks, Chrome", attribute_manufacturer_part_number_s: "WB25X1" }),
];

const BOMS: BomDoc[] = [
  { id: "B1", type: "asset", org_code: "LOU", item_number: "WR55X10942", asset_number: "AST-3", asset_serial_number: "S3", asset_group: "Line 2", asset_description: "Fridge line", quantity: 2 },
  { id: "B2", type: "asset", org_code: "LOU", item_number: "WR55X10942", asset_number: "AST-1", asset_serial_number: null, asset_group: "Line 1", asset_description: "Fridge line", quantity: 1 },
  { id: "B3", type: "pm", org_code: "SEL", item_number: "WR55X10942", asset_number: "PM-9", asset_serial_number: "S9", asset_group: null, asset_description: "PM kit", quantity: 4 },
  { id: "B4", type: "other", org_code: "SEL", item_number: "WD12X10304", asset_number: null, asset_serial_number: null, asset_group: null, asset_description: null, quantity: null },
  { id: "B5", type: "asset", org_code: "LOU", item_number: "WD12X10304", asset_number: "AST-3", asset_serial_number: "S3", asset_group: "Line 2", asset_description: "Fridge line", quantity: 6 },
  { id: "B6", type: "pm", org_code: "LOU", item_number: "WB44T10011", asset_number: "AST-3", asset_serial_number: "S3", asset_group: "Line 2", asset_description: "Fridge line PM", quantity: 1 },
];

let dir: string;
let engine: EmbeddedEngine;
let forgiving: EmbeddedEngine;

function request(overrides: Partial<SearchRequest> = {}): SearchRequest {
  return { q: "", within: [], filters: [], sort: null, start: 0, rows: 20, facetFields: FACETS, ...overrides };
}

function numbers(docs: Doc[]): string[] {
  return docs.map((d) => String(d.item_number_s));
}

function facet(response: { facets: { field: string; values: { value: string; count: number }[] }[] }, field: string) {
  return Object.fromEntries(response.facets.find((f) => f.field === field)!.values.map((v) => [v.value, v.count]));
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "crib-engine-"));
  const writer = new CatalogWriter(path.join(dir, "catalog.db"));
  ITEMS.forEach((doc) => writer.addItem(doc));
  BOMS.forEach((bom) => writer.addBom(bom));
  writer.finish();
  engine = new EmbeddedEngine(path.join(dir, "catalog.db"));
  const second = new CatalogWriter(path.join(dir, "forgiving.db"));
  FORGIVING.forEach((doc) => second.addItem(doc));
  second.finish();
  forgiving = new EmbeddedEngine(path.join(dir, "forgiving.db"));
});

afterAll(() => {
  engine.close();
  forgiving.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the stock level, derived from the quantity on hand and the minimum", () => {
  const stock = (filters: SearchRequest["filters"] = []) => engine.search(request({ filters, facetFields: [...FACETS, STOCK_LEVEL_FIELD] }));

  it("counts the items below their minimum, both known, as one facet value", async () => {
    // 5 < 10 and 0 < 1 are below; 12 of 12 is not; a minimum without a quantity is unknown.
    expect(facet(await stock(), STOCK_LEVEL_FIELD)).toEqual({ [BELOW_MINIMUM]: 2 });
  });

  it("lists exactly those items when included, and every other item when excluded", async () => {
    const below = await stock([{ field: STOCK_LEVEL_FIELD, value: BELOW_MINIMUM, type: "include" }]);
    expect(numbers(below.docs)).toEqual(["WR55X10942", "WR55X10943"]);
    const rest = await stock([{ field: STOCK_LEVEL_FIELD, value: BELOW_MINIMUM, type: "exclude" }]);
    expect(rest.total).toBe(ITEMS.length - 2);
    expect(numbers(rest.docs)).not.toContain("WR55X10942");
  });

  it("combines with other filters, and keeps its own count when it is the one selected (multi-select)", async () => {
    const response = await stock([
      { field: STOCK_LEVEL_FIELD, value: BELOW_MINIMUM, type: "include" },
      { field: "attribute_status_s", value: "Active", type: "include" },
    ]);
    expect(numbers(response.docs)).toEqual(["WR55X10942"]);
    expect(facet(response, STOCK_LEVEL_FIELD)).toEqual({ [BELOW_MINIMUM]: 1 });
    expect(facet(response, "attribute_status_s")).toEqual({ Active: 1, Inactive: 1 });
  });
});

describe("EmbeddedEngine.search", () => {
  it("matches every item for an empty or match-all query, in catalogue order", async () => {
    for (const q of ["", "  ", "*:*", "*"]) {
      const response = await engine.search(request({ q }));
      expect(response.total).toBe(ITEMS.length);
      expect(numbers(response.docs)).toEqual(ITEMS.map((d) => d.item_number_s));
    }
  });

  it("finds part numbers by prefix", async () => {
    const response = await engine.search(request({ q: "WR55" }));
    expect(numbers(response.docs).sort()).toEqual(["WR55X10942", "WR55X10943"]);
    expect((await engine.search(request({ q: "da97-0736" }))).docs.map((d) => d.id)).toEqual(["ID-5"]);
  });

  it("searches descriptions, manufacturer and supplier part numbers; every word must match", async () => {
    expect(numbers((await engine.search(request({ q: "drain" }))).docs).sort()).toEqual(["WD12X10304", "WH23X10030"]);
    expect(numbers((await engine.search(request({ q: "drain pump" }))).docs)).toEqual(["WD12X10304"]);
    expect(numbers((await engine.search(request({ q: "samsung" }))).docs)).toEqual(["DA97-07365A"]);
    expect(numbers((await engine.search(request({ q: "SUP-778812" }))).docs)).toEqual(["W10295370"]);
  });

  it("stems words: plurals and singulars find each other", async () => {
    expect(numbers((await forgiving.search(request({ q: "pumps" }))).docs)).toEqual(["WD12X10304"]);
    expect(numbers((await forgiving.search(request({ q: "rack" }))).docs)).toEqual(["WB02X10011"]);
    expect(numbers((await forgiving.search(request({ q: "elements" }))).docs).sort()).toEqual(["WB44T10011", "wb44t10012"]);
  });

  it("finds part numbers without separators or case, and with them", async () => {
    for (const q of ["MRO-8595736", "mro8595736", "dc6317530b", "DC63-17530B", "DC63 17530B"]) {
      expect(numbers((await forgiving.search(request({ q }))).docs)[0]).toBe("MRO-8595736");
    }
    // A word of several tokens that is no number needs each of them, wherever they are.
    expect(numbers((await forgiving.search(request({ q: "<b>pump</b>" }))).docs)).toEqual([]);
    expect(numbers((await forgiving.search(request({ q: "drain/pump" }))).docs)).toEqual(["WD12X10304"]);
  });

  it("puts an exact item number first, then a part number, then the rest by weight", async () => {
    // MRO8595736 is item 9's number and item 10's alternate part number.
    expect(numbers((await forgiving.search(request({ q: "mro8595736" }))).docs)).toEqual(["MRO-8595736", "WB25X10030"]);
    // WB25X1 is item 11's manufacturer part number and a prefix of item 10's item number.
    expect(numbers((await forgiving.search(request({ q: "WB25X1" }))).docs)).toEqual(["WB02X10011", "WB25X10030"]);
    // An item number match weighs more than a description match.
    expect(numbers((await forgiving.search(request({ q: "wb25x10030 OR oven" }))).docs)[0]).toBe("WB25X10030");
  });

  it("leaves out -word and -\"a phrase\", matches phrases and OR", async () => {
    expect(numbers((await forgiving.search(request({ q: "oven -wall" }))).docs).sort()).toEqual(["WB02X10011", "WB25X10030"]);
    expect(numbers((await forgiving.search(request({ q: 'lamp -"wall oven"' }))).docs)).toEqual(["WB25X10030"]);
    expect(numbers((await forgiving.search(request({ q: '"oven lamp"' }))).docs).sort()).toEqual(["MRO-8595736", "WB25X10030"]);
    expect(numbers((await forgiving.search(request({ q: "hose OR filter" }))).docs).sort()).toEqual(["W10295370", "WH23X10030"]);
    expect((await forgiving.search(request({ q: "-oven" }))).total).toBe(FORGIVING.length - 3);
    expect(numbers((await forgiving.search(request({ q: "oven", within: ["-wall", "-socket"] }))).docs)).toEqual(["WB02X10011"]);
  });

  it("offers a corrected query that finds more when the query finds (almost) nothing", async () => {
    expect((await forgiving.search(request({ q: "thermistr" }))).suggestions).toEqual(["thermistor"]);
    expect((await forgiving.search(request({ q: "drian pump" }))).suggestions).toEqual(["drain pump"]);
    expect((await forgiving.search(request({ q: "thermistor" }))).suggestions).toEqual([]);
    // A correction that finds nothing either is not offered.
    expect((await forgiving.search(request({ q: "freezer thermistr -freezer" }))).suggestions).toEqual([]);
    // Codes are never corrected.
    expect((await forgiving.search(request({ q: "WR55X10999" }))).suggestions).toEqual([]);
  });

  it("finds the items whose item or manufacturer part number a text is, ignoring case and separators", async () => {
    expect(numbers(await forgiving.findByNumber("wr55x10942"))).toEqual(["WR55X10942"]);
    expect(numbers(await forgiving.findByNumber("DC6317530B"))).toEqual(["MRO-8595736"]);
    expect(numbers(await forgiving.findByNumber(" mro-859 5736 ")).sort()).toEqual(["MRO-8595736"]);
    expect(await forgiving.findByNumber("WR55")).toEqual([]);
  });

  it("ANDs search-within terms with the query", async () => {
    const response = await engine.search(request({ q: "thermistor", within: ["freezer"] }));
    expect(numbers(response.docs)).toEqual(["WR55X10943"]);
    expect((await engine.search(request({ q: "", within: ["element"] }))).total).toBe(2);
  });

  it("never raises an SQLite error on hostile query text", async () => {
    for (const q of ['"', "(", "*", "NEAR(", "{!join from=a to=b}x", "a OR b", "-", "\u0000", "x".repeat(10000), "'; DROP TABLE items; --", "AND", "^*:"]) {
      await expect(engine.search(request({ q }))).resolves.toMatchObject({ total: expect.any(Number) });
    }
    expect((await engine.search(request({ q: '"' }))).total).toBe(0);
  });

  it("applies include filters with OR within a facet and AND across facets", async () => {
    const or = await engine.search(request({ filters: [
      { field: "org_code_s", value: "LOU", type: "include" },
      { field: "org_code_s", value: "DEC", type: "include" },
    ] }));
    expect(or.total).toBe(5);
    const and = await engine.search(request({ filters: [
      { field: "org_code_s", value: "LOU", type: "include" },
      { field: "attribute_status_s", value: "Active", type: "include" },
    ] }));
    expect(numbers(and.docs)).toEqual(["WR55X10942", "WD12X10304"]);
  });

  it("applies exclude filters, items without the field are kept", async () => {
    const response = await engine.search(request({ filters: [{ field: "org_code_s", value: "LOU", type: "exclude" }] }));
    expect(response.total).toBe(5);
    expect(numbers(response.docs)).toContain("wb44t10012");
  });

  it("counts facets with multi-select semantics", async () => {
    const response = await engine.search(request({ filters: [{ field: "org_code_s", value: "LOU", type: "include" }] }));
    // The filtered facet still shows every org code, counted without its own filter.
    expect(facet(response, "org_code_s")).toEqual({ LOU: 3, SEL: 2, DEC: 2 });
    // Other facets count only the filtered items.
    expect(facet(response, "category_s")).toEqual({ Sensors: 1, Pumps: 1, Assemblies: 1 });
    expect(facet(response, "attribute_status_s")).toEqual({ Active: 2, "Obsolete - Inactive": 1 });
  });

  it("keeps exclude filters in a facet's own counts", async () => {
    const response = await engine.search(request({ filters: [{ field: "org_code_s", value: "LOU", type: "exclude" }] }));
    expect(facet(response, "org_code_s")).toEqual({ SEL: 2, DEC: 2 });
  });

  it("orders facet values by count, then alphabetically", async () => {
    const response = await engine.search(request());
    expect(response.facets.find((f) => f.field === "category_s")!.values.map((v) => v.value)).toEqual([
      "Heating Elements", "Sensors", "Assemblies", "Filters", "Hoses", "Pumps",
    ]);
  });

  it("sorts by a field case-insensitively with nulls last in both directions", async () => {
    const asc = await engine.search(request({ sort: { field: "org_code_s", direction: "asc" } }));
    expect(asc.docs.map((d) => d.org_code_s ?? null)).toEqual(["DEC", "DEC", "LOU", "LOU", "LOU", "SEL", "SEL", null]);
    const desc = await engine.search(request({ sort: { field: "org_code_s", direction: "desc" } }));
    expect(desc.docs.map((d) => d.org_code_s ?? null)).toEqual(["SEL", "SEL", "LOU", "LOU", "LOU", "DEC", "DEC", null]);
    const items = await engine.search(request({ sort: { field: "item_number_s", direction: "asc" } }));
    expect(numbers(items.docs)).toEqual(["DA97-07365A", "W10295370", "WB44T10011", "wb44t10012", "WD12X10304", "WH23X10030", "WR55X10942", "WR55X10943"]);
  });

  it("sorts by the item description (a text field) by its whole value, case-insensitively", async () => {
    const key = (d: Record<string, unknown>) => (typeof d.item_description_t === "string" ? d.item_description_t.toLowerCase() : null);
    const asc = (await engine.search(request({ sort: { field: "item_description_t", direction: "asc" } }))).docs.map(key);
    const present = asc.filter((v): v is string => v !== null);
    expect(present.length).toBeGreaterThan(2);
    expect(present).toEqual([...present].sort());
    const desc = (await engine.search(request({ sort: { field: "item_description_t", direction: "desc" } }))).docs.map(key);
    expect(desc.filter((v) => v !== null)).toEqual([...present].reverse());
  });

  it("sorts numbers numerically", async () => {
    const response = await engine.search(request({ sort: { field: "attribute_quantity_on_hand_i", direction: "desc" } }));
    expect(response.docs.map((d) => d.attribute_quantity_on_hand_i ?? null)).toEqual([40, 12, 5, 5, 3, 0, null, null]);
  });

  it("pages, and answers pages beyond the end with no documents but the true total", async () => {
    const page2 = await engine.search(request({ start: 3, rows: 3 }));
    expect(page2.docs.map((d) => d.id)).toEqual(["ID-4", "ID-5", "ID-6"]);
    const beyond = await engine.search(request({ start: 100, rows: 20 }));
    expect(beyond.docs).toEqual([]);
    expect(beyond.total).toBe(ITEMS.length);
  });

  it("highlights matched words with markers, leaving the text otherwise untouched", async () => {
    const response = await engine.search(request({ q: "filter" }));
    expect(response.highlighting["ID-6"]).toEqual({
      item_description_t: [`Water ${HL_PRE}Filter${HL_POST} <b>bold</b>`],
    });
  });
});

describe("EmbeddedEngine.cursor", () => {
  it("yields every matching document exactly once in a stable order", async () => {
    const seen: string[] = [];
    for await (const batch of engine.cursor({ q: "", within: [], filters: [], sort: { field: "org_code_s", direction: "asc" }, batchSize: 3 })) {
      expect(batch.length).toBeLessThanOrEqual(3);
      seen.push(...batch.map((d) => d.id));
    }
    expect(seen).toHaveLength(ITEMS.length);
    expect(new Set(seen).size).toBe(ITEMS.length);
    const again: string[] = [];
    for await (const batch of engine.cursor({ q: "", within: [], filters: [], sort: { field: "org_code_s", direction: "asc" }, batchSize: 5 })) {
      again.push(...batch.map((d) => d.id));
    }
    expect(again).toEqual(seen);
  });

  it("respects filters and the limit", async () => {
    const seen: string[] = [];
    for await (const batch of engine.cursor({ q: "", within: [], filters: [{ field: "org_code_s", value: "LOU", type: "include" }], sort: null, batchSize: 2, limit: 2 })) {
      seen.push(...batch.map((d) => d.id));
    }
    expect(seen).toEqual(["ID-1", "ID-3"]);
  });
});

describe("EmbeddedEngine lookups", () => {
  it("finds a product by id or item number", async () => {
    expect((await engine.getProduct("ID-3"))?.item_number_s).toBe("WD12X10304");
    expect((await engine.getProduct("WD12X10304"))?.id).toBe("ID-3");
    expect(await engine.getProduct("../../etc/passwd")).toBeNull();
  });

  it("returns BOM records by item number and type, sorted with nulls last", async () => {
    const all = await engine.bom({ itemNumber: "WR55X10942", start: 0, rows: 20 });
    expect(all.total).toBe(3);
    const assets = await engine.bom({ itemNumber: "WR55X10942", type: "asset", start: 0, rows: 20, sort: { field: "asset_number", direction: "asc" } });
    expect(assets.docs.map((d) => d.asset_number)).toEqual(["AST-1", "AST-3"]);
    const bySerial = await engine.bom({ itemNumber: "WR55X10942", start: 0, rows: 20, sort: { field: "asset_serial_number", direction: "desc" } });
    expect(bySerial.docs.map((d) => d.asset_serial_number)).toEqual(["S9", "S3", null]);
    const paged = await engine.bom({ itemNumber: "WR55X10942", start: 2, rows: 5 });
    expect(paged).toMatchObject({ total: 3, docs: [expect.objectContaining({ id: "B3" })] });
  });

  it("returns the lines of the BOMs a number heads, by type, whatever its case", async () => {
    const lines = await engine.bom({ assetNumber: "AST-3", start: 0, rows: 20 });
    expect(lines.docs.map((d) => d.id)).toEqual(["B1", "B5", "B6"]);
    const assets = await engine.bom({ assetNumber: "ast-3", type: "asset", start: 0, rows: 20, sort: { field: "quantity", direction: "desc" } });
    expect(assets.docs.map((d) => d.item_number)).toEqual(["WD12X10304", "WR55X10942"]);
    expect((await engine.bom({ assetNumber: "AST-3", type: "pm", start: 0, rows: 20 })).docs.map((d) => d.item_number)).toEqual(["WB44T10011"]);
    // A head is not a component, nor the other way round.
    expect((await engine.bom({ itemNumber: "AST-3", start: 0, rows: 20 })).total).toBe(0);
    expect((await engine.bom({ assetNumber: "WR55X10942", start: 0, rows: 20 })).total).toBe(0);
  });

  it("suggests item numbers by prefix", async () => {
    expect(await engine.suggest("wb44", 5)).toEqual(["WB44T10011", "wb44t10012"]);
    expect(await engine.suggest("  ", 5)).toEqual([]);
  });
});

describe("catalogue replacement", () => {
  it("switches to a catalogue swapped in by rename, at its next check of the file (2 s)", async () => {
    // A fake clock: the engine looks at the file again once 2 s have passed since its last look.
    vi.useFakeTimers({ toFake: ["Date"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const file = path.join(dir, "swap.db");
    const first = new CatalogWriter(file);
    first.addItem(item(1, { item_description_t: "Old" }));
    first.finish();
    const swapEngine = new EmbeddedEngine(file);
    expect((await swapEngine.search(request())).total).toBe(1);
    const next = new CatalogWriter(`${file}.tmp`);
    next.addItem(item(1, { item_description_t: "New" }));
    next.addItem(item(2, { item_description_t: "New" }));
    next.finish();
    fs.renameSync(`${file}.tmp`, file);
    expect((await swapEngine.search(request())).total).toBe(1);
    vi.advanceTimersByTime(2_000);
    expect((await swapEngine.search(request())).total).toBe(2);
    swapEngine.close();
  });
});
