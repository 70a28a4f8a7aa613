/**
 * Issue 29 point 8: every word the item page shows from a searchable field is found by a search,
 * part numbers included (CMPN and ACMPN, e.g. `835C5513P470`), on a sample catalogue.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOG_FIELDS } from "../../catalog-fields";
import type { Doc, SearchRequest } from "../../engine";
import { formatValue } from "../../field-format";
import { CatalogWriter } from "./catalog-writer.server";
import { EmbeddedEngine } from "./embedded-engine.server";
import { generateItems } from "./sample-data";

const ITEMS = [...generateItems(400)];
const SEARCHABLE = CATALOG_FIELDS.filter((f) => f.fts).map((f) => f.name);

let dir: string;
let engine: EmbeddedEngine;

const request = (q: string): SearchRequest => ({ q, within: [], filters: [], sort: null, start: 0, rows: 100, facetFields: [] });
const numbersOf = (docs: Doc[]) => docs.map((d) => String(d.item_number_s));

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "crib-searchable-"));
  const writer = new CatalogWriter(path.join(dir, "catalog.db"));
  ITEMS.forEach((doc) => writer.addItem(doc));
  writer.finish();
  engine = new EmbeddedEngine(path.join(dir, "catalog.db"));
});

afterAll(() => {
  engine.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("searchable fields of the embedded catalogue", () => {
  it("include the part numbers the item page shows as CMPN and ACMPN", () => {
    expect(SEARCHABLE).toEqual(expect.arrayContaining(["attribute_cmpn_s", "attribute_acmpn_s", "attribute_manufacturer_part_number_s"]));
  });

  it("find an item by each CMPN and ACMPN it shows, as written and in lower case, first among the results", async () => {
    const withNumbers = ITEMS.filter((d) => d.attribute_cmpn_s || d.attribute_acmpn_s);
    expect(withNumbers.length, "sample items with a CMPN or ACMPN").toBeGreaterThan(50);
    for (const doc of withNumbers) {
      for (const value of [doc.attribute_cmpn_s, doc.attribute_acmpn_s].filter(Boolean).map(String)) {
        for (const q of [value, value.toLowerCase()]) {
          const response = await engine.search(request(q));
          expect(numbersOf(response.docs)[0], `${q} → ${String(doc.item_number_s)}`).toBe(doc.item_number_s);
        }
      }
    }
  });

  it("open the item for a CMPN, as for an item number or manufacturer part number", async () => {
    const doc = ITEMS.find((d) => d.attribute_cmpn_s)!;
    expect(numbersOf(await engine.findByNumber(String(doc.attribute_cmpn_s)))).toEqual([doc.item_number_s]);
  });

  it("find an item by every word the item page shows from a searchable field", async () => {
    const missed: string[] = [];
    for (const doc of ITEMS.slice(0, 150)) {
      for (const field of SEARCHABLE) {
        const shown = doc[field] === null || doc[field] === undefined ? "" : formatValue(doc[field]);
        for (const word of shown.split(/\s+/).filter(Boolean)) {
          // The word with the item's own number narrows the results to that item.
          const response = await engine.search(request(`${word} ${String(doc.item_number_s)}`));
          if (!numbersOf(response.docs).includes(String(doc.item_number_s))) missed.push(`${field}: ${word} (${String(doc.item_number_s)})`);
        }
      }
    }
    expect(missed).toEqual([]);
  });
});
