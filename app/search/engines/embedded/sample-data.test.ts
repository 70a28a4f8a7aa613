import { describe, expect, it } from "vitest";
import type { BomDoc, Doc } from "../../engine";
import { generateBoms, generateItems, MAX_SAMPLE_ITEMS, sampleItem, sampleItemKey } from "./sample-data";
import { ITEM_COLUMN_NAMES, ITEM_COLUMNS } from "./schema";

const N = 3000;
const items: Doc[] = [...generateItems(N)];
const boms: BomDoc[] = [...generateBoms(N)];

function usesByItem(records: BomDoc[]): Map<string, Record<BomDoc["type"], number>> {
  const uses = new Map<string, Record<BomDoc["type"], number>>();
  for (const r of records) {
    const u = uses.get(r.item_number) ?? { asset: 0, pm: 0, other: 0 };
    u[r.type]++;
    uses.set(r.item_number, u);
  }
  return uses;
}

describe("generateItems", () => {
  it("is deterministic for a seed and differs between seeds", () => {
    expect([...generateItems(200, 7)]).toEqual([...generateItems(200, 7)]);
    const other = [...generateItems(200, 8)];
    expect(other.map((d) => d.item_number_s)).not.toEqual([...generateItems(200, 7)].map((d) => d.item_number_s));
  });

  it("gives the same item whether streamed or built alone, and a prefix of a larger catalogue", () => {
    const small = [...generateItems(50)];
    expect(small).toEqual(items.slice(0, 50));
    expect(sampleItem(1234)).toEqual(items[1234]);
    expect(sampleItemKey(77).itemNumber).toBe(items[77]!.item_number_s);
  });

  it("makes item numbers and ids unique", () => {
    expect(new Set(items.map((d) => d.item_number_s)).size).toBe(N);
    expect(new Set(items.map((d) => String(d.item_number_s).toLowerCase())).size).toBe(N);
    expect(new Set(items.map((d) => d.id)).size).toBe(N);
  });

  it("keeps item numbers unique across a much larger catalogue", () => {
    const seen = new Set<string>();
    for (const doc of generateItems(200_000, 3)) seen.add(String(doc.item_number_s));
    expect(seen.size).toBe(200_000);
    // Generating 200,000 items takes a few seconds on a busy machine.
  }, 30_000);

  it("uses appliance part number families", () => {
    const patterns = [
      /^W[RDHEBJ]\d{2}[XTM]\d{5}$/, // WR55X10942
      /^D[ABCDEG]\d{2}-\d{5}[A-D]$/, // DA97-07365A
      /^W[12]\d{7}$/, // W10295370
      /^\d{10}$/, // 5304506469
      /^[A-Z]{3}\d{8}$/, // EBR78940601
      /^MRO-\d{7}$/,
    ];
    for (const doc of items) {
      expect(patterns.some((p) => p.test(String(doc.item_number_s))), String(doc.item_number_s)).toBe(true);
    }
    for (const pattern of patterns) expect(items.some((d) => pattern.test(String(d.item_number_s)))).toBe(true);
  });

  it("uses only index field names, and fills every column for some item", () => {
    for (const doc of items.slice(0, 100)) {
      for (const key of Object.keys(doc)) expect(key === "id" || ITEM_COLUMN_NAMES.has(key), key).toBe(true);
    }
    for (const column of ITEM_COLUMNS) {
      expect(items.some((d) => d[column.name] !== null && d[column.name] !== undefined), column.name).toBe(true);
    }
  });

  it("fills most columns for most items but leaves optional ones null for some", () => {
    const alwaysFilled = ["item_number_s", "item_description_t", "org_code_s", "attribute_status_s"];
    for (const name of alwaysFilled) expect(items.every((d) => d[name] !== null)).toBe(true);
    for (const name of ["manufacturer_s", "category_s", "attribute_quantity_on_hand_i", "attribute_unit_cost_d", "attribute_supplier_s"]) {
      const nulls = items.filter((d) => d[name] === null).length;
      expect(nulls, name).toBeGreaterThan(0);
      expect(nulls, name).toBeLessThan(N * 0.15);
    }
  });

  it("writes values of the column's type", () => {
    const dateForm = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
    const wrong: string[] = [];
    for (const doc of items) {
      for (const column of ITEM_COLUMNS) {
        const value = doc[column.name];
        if (value === null || value === undefined) continue;
        const ok =
          column.type === "int"
            ? Number.isInteger(value)
            : column.type === "float"
              ? typeof value === "number" && Number.isFinite(value)
              : column.type === "date"
                ? dateForm.test(String(value))
                : typeof value === "string";
        if (!ok) wrong.push(`${doc.id} ${column.name}=${JSON.stringify(value)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("includes inactive statuses besides a majority of Active", () => {
    const statuses = new Map<string, number>();
    for (const d of items) statuses.set(String(d.attribute_status_s), (statuses.get(String(d.attribute_status_s)) ?? 0) + 1);
    expect(statuses.get("Active")! / N).toBeGreaterThan(0.6);
    expect(statuses.get("Inactive")).toBeGreaterThan(0);
    expect(statuses.get("Obsolete - Inactive")).toBeGreaterThan(0);
    expect(statuses.size).toBeGreaterThanOrEqual(5);
  });

  it("has realistic variety in facets", () => {
    const distinct = (name: string) => new Set(items.map((d) => d[name]).filter((v) => v !== null)).size;
    expect(distinct("org_code_s")).toBe(6);
    expect(distinct("category_s")).toBeGreaterThanOrEqual(25);
    expect(distinct("manufacturer_s")).toBeGreaterThanOrEqual(40);
    expect(distinct("attribute_item_type_s")).toBe(6);
    expect(distinct("attribute_subinventory_s")).toBeGreaterThanOrEqual(6);
  });

  it("keeps stock levels and prices consistent", () => {
    for (const d of items) {
      const [min, max] = [d.attribute_subinventory_min_stock_level_i, d.attribute_subinventory_max_stock_level_i];
      if (typeof min === "number" && typeof max === "number") expect(min).toBeLessThan(max);
      const [orgMin, orgMax] = [d.attribute_org_min_stock_level_i, d.attribute_org_max_stock_level_i];
      if (typeof orgMin === "number" && typeof orgMax === "number") expect(orgMin).toBeLessThan(orgMax);
      const [cost, list] = [d.attribute_unit_cost_d, d.attribute_list_price_d];
      if (typeof cost === "number" && typeof list === "number") {
        expect(list).toBeGreaterThan(cost);
        expect(Math.round(list * 100)).toBeCloseTo(list * 100, 6);
      }
      if (typeof d.attribute_quantity_on_hand_i === "number") expect(d.attribute_quantity_on_hand_i).toBeGreaterThanOrEqual(0);
    }
    expect(items.some((d) => d.attribute_quantity_on_hand_i === 0)).toBe(true);
    expect(items.some((d) => d.attribute_planning_method_s === "Not Planned" && d.attribute_org_min_stock_level_i === null)).toBe(true);
  });

  it("gives a few items images that do not exist and external links on example.com", () => {
    const withImage = items.filter((d) => d.primary_image_url_s !== null);
    expect(withImage.length).toBeGreaterThan(0);
    expect(withImage.length).toBeLessThan(N * 0.15);
    for (const d of withImage) expect(String(d.primary_image_url_s)).toMatch(/^\/images\//);
    for (const d of items.filter((x) => x.url_s !== null)) expect(String(d.url_s)).toMatch(/^https:\/\/[a-z.]*example\.com\//);
  });

  it("describes items in words that one-word searches can find", () => {
    const pumps = items.filter((d) => /\bpump\b/i.test(String(d.item_description_t)));
    expect(pumps.length).toBeGreaterThan(20);
    // Pump seals are found by "pump" too; anything else would be noise.
    expect(new Set(pumps.map((d) => d.category_s))).toEqual(new Set(["Pumps", "Seals", null]));
    expect(items.some((d) => /\bThermistor\b/.test(String(d.item_description_t)))).toBe(true);
    const doubled = items.map((d) => String(d.item_description_t)).filter((t) => /(?:^|\s)(\S+)\s+\1(?=\s|$)/i.test(t));
    expect(doubled).toEqual([]);
  });

  it("refuses sizes it cannot keep unique", () => {
    expect(() => generateItems(MAX_SAMPLE_ITEMS + 1).next()).toThrow(RangeError);
    expect(() => generateItems(-1).next()).toThrow(RangeError);
  });
});

describe("generateBoms", () => {
  const itemNumbers = new Set(items.map((d) => String(d.item_number_s)));
  const uses = usesByItem(boms);

  it("is deterministic", () => {
    expect([...generateBoms(300, 5)]).toEqual([...generateBoms(300, 5)]);
  });

  it("references only items of the catalogue of the same size and seed", () => {
    for (const b of boms) expect(itemNumbers.has(b.item_number), b.item_number).toBe(true);
  });

  it("gives every record a unique id and the BOM document fields", () => {
    expect(new Set(boms.map((b) => b.id)).size).toBe(boms.length);
    for (const b of boms.slice(0, 200)) {
      expect(b.asset_number).toMatch(/^(AST|PM|TL)-\d{5}$/);
      expect(["asset", "pm", "other"]).toContain(b.type);
      expect(b.asset_description).toBeTruthy();
    }
  });

  it("has about 1.5 records per item, skewed: a handful used 30+ times, many never", () => {
    expect(boms.length / N).toBeGreaterThan(1.2);
    expect(boms.length / N).toBeLessThan(1.9);
    const totals = [...uses.values()].map((u) => u.asset + u.pm + u.other);
    expect(totals.filter((t) => t >= 30).length).toBeGreaterThanOrEqual(3);
    expect(N - uses.size).toBeGreaterThan(N * 0.3);
  });

  it("has components used only in assets and components used only in PM kits, several times each", () => {
    const entries = [...uses.values()];
    expect(entries.filter((u) => u.asset >= 2 && u.pm === 0 && u.other === 0).length).toBeGreaterThanOrEqual(3);
    expect(entries.filter((u) => u.pm >= 2 && u.asset === 0 && u.other === 0).length).toBeGreaterThanOrEqual(3);
    expect(entries.filter((u) => u.asset > 0 && u.pm > 0).length).toBeGreaterThan(0);
  });

  it("has all three types", () => {
    const types = new Set(boms.map((b) => b.type));
    expect([...types].sort()).toEqual(["asset", "other", "pm"]);
  });
});
