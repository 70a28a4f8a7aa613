import { describe, expect, it } from "vitest";
import { HL_POST, HL_PRE } from "../../engine";
import { FusionError } from "./fusion-errors";
// Fixtures: fusion-api.md §6, verbatim where the reference is verbatim JSON; §6.2 is the verbatim
// excerpt completed into a whole body (its `response` is elided in the reference), §6.6 is the
// published pseudo-JSON with its comments replaced by docs. bom-docs.json is synthetic.
import bomFixture from "./fixtures/bom-docs.json";
import cursorEnd from "./fixtures/cursor-end-6.6.json";
import fusionFacetFields from "./fixtures/fusion-facet-fields-6.2.json";
import highlighting61 from "./fixtures/highlighting-6.1.json";
import jsonFacets65 from "./fixtures/json-facets-6.5.json";
import spellcheck63 from "./fixtures/spellcheck-6.3.json";
import suggest64 from "./fixtures/suggest-6.4.json";
import {
  parseCollations,
  parseFacets,
  parseHighlighting,
  parseSearchResponse,
  parseSolrBody,
  parseSuggestions,
  toBomDoc,
  boundDoc,
  MAX_DOC_TEXT,
  MAX_VALUE_TEXT,
} from "./parse-response.server";

function malformed(body: unknown): FusionError {
  try {
    parseSearchResponse(body, ["type"], null);
  } catch (error) {
    if (error instanceof FusionError) return error;
    throw new Error(`expected a FusionError, got ${String(error)}`);
  }
  throw new Error("expected the body to be refused");
}

describe("parseSearchResponse", () => {
  it("reads docs, total and <em> highlights of the Solr highlighting example (§6.1) as markers", () => {
    const result = parseSearchResponse(highlighting61, [], null);
    expect(result.total).toBe(1);
    expect(result.docs).toEqual([
      { id: "MA147LL/A", name: "Apple 60 GB iPod with Video Playback Black", manu: "Apple Computer Inc.", cat: ["electronics", "music"] },
    ]);
    expect(result.highlighting).toEqual({ "MA147LL/A": { manu: [`${HL_PRE}Apple${HL_POST} Computer Inc.`] } });
    expect(result.suggestions).toEqual([]);
    expect(result).not.toHaveProperty("queryId");
  });

  it("reads a Fusion response with echoed params (§6.2): classic flat facet_fields, empty highlights, query id from the header", () => {
    const result = parseSearchResponse(fusionFacetFields, ["type", "rhd_taxonomy_topic", "absent_s"], "f5KGn9KPvv");
    expect(result.total).toBe(999);
    expect(result.docs.map((d) => d.id)).toEqual(["https://developers.redhat.com/blog/2015/03/11/introducing-the-rhel-container-for-rhel-atomic-host/"]);
    expect(result.facets).toEqual([
      {
        field: "type",
        values: [
          { value: "article", count: 817 },
          { value: "web_page", count: 141 },
          { value: "product", count: 23 },
          { value: "videos", count: 11 },
          { value: "books", count: 5 },
          { value: "interactive_tutorials", count: 2 },
        ],
      },
      // A zero count in a flat list is no value to offer.
      { field: "rhd_taxonomy_topic", values: [{ value: "containers", count: 12 }] },
      { field: "absent_s", values: [] },
    ]);
    expect(result.highlighting).toEqual({ "https://developers.redhat.com/blog/2015/03/11/introducing-the-rhel-container-for-rhel-atomic-host/": {} });
    expect(result.queryId).toBe("f5KGn9KPvv");
  });

  it("reads the spell-check collation of the flat NamedList example (§6.3)", () => {
    const result = parseSearchResponse(spellcheck63, [], null);
    expect(result.total).toBe(0);
    expect(result.docs).toEqual([]);
    expect(result.suggestions).toEqual(["camera"]);
  });

  it("reads JSON facet buckets (§6.5), ignoring nested sub-facets", () => {
    const result = parseSearchResponse(jsonFacets65, ["categories"], null);
    expect(result.facets).toEqual([
      {
        field: "categories",
        values: [
          { value: "electronics", count: 12 },
          { value: "currency", count: 4 },
        ],
      },
    ]);
  });

  it("turns numeric ids into strings and nested values into text", () => {
    const result = parseSearchResponse({ response: { numFound: 1, docs: [{ id: 7, n: 2, flag: true, list: ["a", 3], obj: { a: 1 }, none: null }] } }, [], null);
    expect(result.docs).toEqual([{ id: "7", n: 2, flag: true, list: ["a", "3"], obj: '{"a":1}', none: null }]);
  });

  it("turns nested values into text in documents with string ids too, and keeps plain values as they are", () => {
    const plain = { id: "p", n: 2, flag: false, list: ["a", "b"], none: null };
    const result = parseSearchResponse(
      { response: { numFound: 3, docs: [{ id: "a", list: ["x", 1] }, { id: "b", obj: { a: [1] } }, plain] } },
      [],
      null,
    );
    expect(result.docs).toEqual([{ id: "a", list: ["x", "1"] }, { id: "b", obj: '{"a":[1]}' }, plain]);
  });
});

describe("parseSolrBody", () => {
  it("reads nextCursorMark (§6.6)", () => {
    const [first, last] = cursorEnd;
    expect(parseSolrBody(first?.body).nextCursorMark).toBe("AoEpdmlld3Nvbmlj");
    expect(parseSolrBody(last?.body).nextCursorMark).toBe(last?.cursorMark);
    expect(parseSolrBody(last?.body).response.docs).toEqual([]);
  });

  const bodies: Array<[string, unknown]> = [
    ["missing response", { responseHeader: { status: 0 } }],
    ["numFound as a string", { response: { numFound: "32", start: 0, docs: [] } }],
    ["negative numFound", { response: { numFound: -1, docs: [] } }],
    ["docs not a list", { response: { numFound: 1, docs: { id: "a" } } }],
    ["a doc without id", { response: { numFound: 1, docs: [{ name: "x" }] } }],
    ["a doc whose id is an object", { response: { numFound: 1, docs: [{ id: { value: "a" } }] } }],
    ["a doc that is a list", { response: { numFound: 1, docs: [["id", "a"]] } }],
    ["a doc that is null", { response: { numFound: 1, docs: [null] } }],
    ["highlight snippets not a list", { response: { numFound: 0, docs: [] }, highlighting: { a: { f: "x" } } }],
    ["truncated JSON text", '{"response":{"numFound":32,"start":0,"docs":[{"id":"a"'],
    ["null", null],
    ["an HTML page", "<html><body>Bad gateway</body></html>"],
    ["a Solr error body (§6.7 shape)", { error: { msg: "boom", code: 400 } }],
  ];

  it.each(bodies)("refuses %s with 'Search request failed'", (_label, body) => {
    const error = malformed(body);
    expect(error.message).toBe("Search request failed");
    expect(error.reason).toBe("malformed");
    expect(error.isOutage).toBe(true);
  });
});

describe("parseFacets", () => {
  it("prefers JSON buckets and falls back to the classic list per field", () => {
    const body = parseSolrBody({
      response: { numFound: 0, docs: [] },
      facets: { count: 3, org_code_s: { buckets: [{ val: "M01", count: 2 }, { val: 5, count: 1 }] } },
      facet_counts: { facet_fields: { org_code_s: ["ignored", 9], category_s: ["Pumps", 4, "odd"] } },
    });
    expect(parseFacets(body, ["org_code_s", "category_s"])).toEqual([
      { field: "org_code_s", values: [{ value: "M01", count: 2 }, { value: "5", count: 1 }] },
      { field: "category_s", values: [{ value: "Pumps", count: 4 }] },
    ]);
  });

  it("reads the stock level's query facet as its one value, none when no item is below minimum or the answer is odd", () => {
    const body = (below: unknown) => parseSolrBody({ response: { numFound: 0, docs: [] }, facets: { count: 9, stock_level_s: below } });
    expect(parseFacets(body({ count: 4 }), ["stock_level_s"])).toEqual([{ field: "stock_level_s", values: [{ value: "Below minimum", count: 4 }] }]);
    expect(parseFacets(body({ count: 0 }), ["stock_level_s"])).toEqual([{ field: "stock_level_s", values: [] }]);
    expect(parseFacets(body({ buckets: [] }), ["stock_level_s"])).toEqual([{ field: "stock_level_s", values: [] }]);
  });
});

describe("parseHighlighting", () => {
  it("keeps snippets that already carry the markers, and leaves other markup as text", () => {
    expect(
      parseHighlighting({ a: { f: [`${HL_PRE}pump${HL_POST} <em>x</em>`, "<b>bold</b> <em>seal</em>", "a < b"] } }),
    ).toEqual({ a: { f: [`${HL_PRE}pump${HL_POST} <em>x</em>`, `<b>bold</b> ${HL_PRE}seal${HL_POST}`, "a < b"] } });
    expect(parseHighlighting(undefined)).toEqual({});
  });
});

describe("parseCollations", () => {
  it("reads every collation shape: flat NamedList, map, plain strings; de-duplicated, blanks dropped", () => {
    expect(parseCollations(spellcheck63.spellcheck)).toEqual(["camera"]);
    expect(parseCollations({ collations: ["collation", { collationQuery: "camera", hits: 1 }, "collation", { collationQuery: "camera lens", hits: 1 }] })).toEqual([
      "camera",
      "camera lens",
    ]);
    expect(parseCollations({ collations: { collation: { collationQuery: "camera", hits: 1 } } })).toEqual(["camera"]);
    expect(parseCollations({ collations: { collation: "camera" } })).toEqual(["camera"]);
    expect(parseCollations({ collations: ["collation", "camera", "collation", "camera", "collation", "  "] })).toEqual(["camera"]);
    expect(parseCollations({ collations: [] })).toEqual([]);
    expect(parseCollations(undefined)).toEqual([]);
    expect(parseCollations({})).toEqual([]);
  });
});

describe("toBomDoc", () => {
  it("reads BOM docs with suffixed field names into the bare keys of the model", () => {
    const docs = bomFixture.response.docs.map((d) => toBomDoc(d));
    expect(docs).toEqual([
      {
        id: "bom-1",
        type: "asset",
        org_code: "M01",
        item_number: "GE-WR55X10942",
        asset_number: "A-1001",
        asset_serial_number: "SN-77",
        asset_group: "Refrigeration",
        asset_description: "Walk-in cooler",
        quantity: 2,
      },
      {
        id: "42",
        type: "pm",
        org_code: "M02",
        item_number: "GE-WR55X10942",
        asset_number: "A-2002",
        asset_serial_number: null,
        asset_group: "HVAC, Roof",
        asset_description: null,
        quantity: 3,
      },
      {
        id: "bom-3",
        type: "other",
        org_code: null,
        item_number: "GE-WR55X10942",
        asset_number: null,
        asset_serial_number: null,
        asset_group: null,
        asset_description: null,
        quantity: null,
      },
    ]);
  });

  it("reads bare field names too, and a non-numeric quantity as none", () => {
    expect(toBomDoc({ id: "x", type: "asset", item_number: "I-1", quantity: "lots" })).toMatchObject({ type: "asset", item_number: "I-1", quantity: null });
  });
});

describe("parseSuggestions", () => {
  it("reads the suggester answer (§6.4)", () => {
    expect(parseSuggestions(suggest64)).toEqual(["hive"]);
  });

  it("gives no suggestions for a body of another shape", () => {
    expect(parseSuggestions({ response: { numFound: 0, docs: [] } })).toEqual([]);
    expect(parseSuggestions(null)).toEqual([]);
  });
});

describe("boundDoc", () => {
  it("cuts a document's text to MAX_DOC_TEXT in all and each value to MAX_VALUE_TEXT, keeping the id", () => {
    const raw: Record<string, unknown> = { id: "x".repeat(300), quantity_i: 3 };
    for (let i = 0; i < 10; i++) raw[`field_${i}_s`] = "y".repeat(10_000);
    const doc = boundDoc(raw);
    expect(doc.id).toBe(raw.id);
    expect(doc.quantity_i).toBe(3);
    expect((doc.field_0_s as string).length).toBe(MAX_VALUE_TEXT);
    const text = Object.entries(doc).filter(([k]) => k !== "id").map(([, v]) => (typeof v === "string" ? v.length : 0));
    expect(text.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(MAX_DOC_TEXT);
  });

  it("leaves an ordinary document as it is", () => {
    const raw = { id: "1", item_number_s: "A-1", tags_ss: ["a", "b"], price_d: 1.5 };
    expect(boundDoc(raw)).toEqual(raw);
  });
});
