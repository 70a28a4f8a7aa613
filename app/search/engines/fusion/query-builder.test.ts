import { describe, expect, it } from "vitest";
import type { Filter, SearchRequest } from "../../engine";
import { HL_POST, HL_PRE } from "../../engine";
import { parseQuery } from "../../query/query";
import { DEFAULT_SEARCH_CONFIG } from "../../search-config";
import {
  baseStep,
  buildQuery,
  CURSOR_STEPS,
  facetStep,
  filterQueries,
  filterStep,
  highlightStep,
  luceneQuery,
  numberQuery,
  plainWords,
  pagingStep,
  queryStep,
  solrPhrase,
  sortParam,
  sortStep,
  spellcheckStep,
  type FusionQueryOptions,
  type QueryStep,
  solrFacetField,
} from "./query-builder";

const config = DEFAULT_SEARCH_CONFIG;

function request(overrides: Partial<SearchRequest> = {}): SearchRequest {
  return { q: "", within: [], filters: [], sort: null, start: 0, rows: 20, facetFields: [], ...overrides };
}

/** Runs one step on empty params, so a test sees exactly what that step sets. */
function run(step: QueryStep, req: SearchRequest, options: FusionQueryOptions = {}): URLSearchParams {
  const params = new URLSearchParams();
  step(params, req, config, options);
  return params;
}

function keys(params: URLSearchParams): string[] {
  return [...new Set(params.keys())].sort();
}

/**
 * Reads an fq the way Solr's lucene parser would: `{!tag=…}[-]field:( "…" OR "…" )` where every
 * value must be exactly one QUOTED token (`"` then non-`"`/`\` chars or `\`-escapes, then `"`).
 */
function readFq(fq: string): { tag: string; negated: boolean; field: string; values: string[] } {
  const outer = /^\{!tag=([A-Za-z0-9_.]+)\}(-?)([A-Za-z_][A-Za-z0-9_.]*):\((.*)\)$/s.exec(fq);
  if (!outer) throw new Error(`not a tagged field clause: ${fq}`);
  const [, tag = "", minus = "", field = "", inner = ""] = outer;
  const values: string[] = [];
  const phrase = /"((?:[^"\\]|\\.)*)"/sy;
  let at = 0;
  while (at < inner.length) {
    if (values.length > 0) {
      if (!inner.startsWith(" OR ", at)) throw new Error(`expected " OR " at ${at} in ${inner}`);
      at += 4;
    }
    phrase.lastIndex = at;
    const m = phrase.exec(inner);
    if (!m) throw new Error(`expected one quoted phrase at ${at} in ${inner}`);
    values.push((m[1] ?? "").replace(/\\(.)/gs, "$1"));
    at = phrase.lastIndex;
  }
  return { tag, negated: minus === "-", field, values };
}

const include = (field: string, value: string): Filter => ({ field, value, type: "include" });
const exclude = (field: string, value: string): Filter => ({ field, value, type: "exclude" });

/** Field names of `field:` clauses the lucene parser would see, after it drops backslash escapes. */
function liveFields(q: string): string[] {
  return [...q.matchAll(/((?:\\.|[A-Za-z0-9_])+):/g)].map((m) => (m[1] ?? "").replace(/\\(.)/g, "$1"));
}

/** True when the text has a `{!` that a backslash does not escape (a local-params opener). */
function hasLiveLocalParams(q: string): boolean {
  return /(^|[^\\])(\\\\)*\{!/.test(q);
}

describe("baseStep", () => {
  it("sets the JSON writer, OR default operator and all stored fields with the score, and nothing else", () => {
    const params = run(baseStep, request({ q: "pump", start: 40, rows: 50 }));
    expect(params.get("wt")).toBe("json");
    expect(params.get("q.op")).toBe("OR");
    expect(params.get("fl")).toBe("*,score");
    expect(keys(params)).toEqual(["fl", "q.op", "wt"]);
  });

  it("passes the collection only when one is configured", () => {
    expect(run(baseStep, request(), { collection: "parts" }).get("collection")).toBe("parts");
    expect(run(baseStep, request(), {}).has("collection")).toBe(false);
  });
});

describe("queryStep", () => {
  it("uses the match-all query *:* for an empty, blank or match-all query, and sets only q", () => {
    for (const q of ["", "   ", "*:*", " *:* ", "*"]) {
      const params = run(queryStep, request({ q }));
      expect(params.get("q")).toBe("*:*");
      expect(keys(params)).toEqual(["q"]);
    }
  });

  it("requires every word: the default operator is OR, so each clause carries +", () => {
    expect(run(queryStep, request({ q: "  water pump  " })).get("q")).toBe("+water +pump");
  });

  it("renders phrases, OR groups and exclusions of the query language", () => {
    expect(run(queryStep, request({ q: 'oven -wall "self clean" pump OR valve -"door seal"' })).get("q")).toBe(
      '+oven +"self clean" +(pump OR valve) -wall -"door seal"',
    );
    expect(run(queryStep, request({ q: "-wall" })).get("q")).toBe("*:* -wall");
  });

  it("joins the search-within terms to the same tree", () => {
    expect(run(queryStep, request({ q: "pump", within: ["a", "b c"] })).get("q")).toBe("+pump +a +b +c");
    expect(run(queryStep, request({ q: "", within: ["seal", "-x"] })).get("q")).toBe("+seal -x");
    expect(run(queryStep, request({ q: "*:*", within: ["a"] })).get("q")).toBe("+a");
    expect(run(queryStep, request({ q: "pump", within: ["  ", ""] })).get("q")).toBe("+pump");
  });

  it("finds nothing for text with nothing searchable in it", () => {
    expect(run(queryStep, request({ q: '"' })).get("q")).toBe("-*:*");
  });

  it("escapes every special character of a word, and lower-cases the operator words", () => {
    expect(plainWords(' 1/2" valve ')).toBe('1\\/2\\" valve');
    expect(plainWords("DA96-27984B (kit) AND seal OR NOT x*")).toBe("DA96\\-27984B \\(kit\\) and seal or not x\\*");
    expect(plainWords("a:b {!join} [1 TO 2] ~ ^ ! + & | \\ ?")).toBe("a\\:b \\{\\!join\\} \\[1 TO 2\\] \\~ \\^ \\! \\+ \\& \\| \\\\ \\?");
    expect(luceneQuery(parseQuery('1/2" MRO-8595736 AND'))).toBe('+1\\/2\\" +MRO\\-8595736 +and');
  });

  it("sends the wanted words only, ANDed, when asked for plain text", () => {
    expect(run(queryStep, request({ q: '1/2" valve -x', within: ['"brass old"'] }), { plainText: true }).get("q")).toBe('1\\/2\\" AND valve AND brass AND old');
    expect(run(queryStep, request({ q: "" }), { plainText: true }).get("q")).toBe("*:*");
  });

  it("keeps local params and magic fields as text, wherever they appear", () => {
    for (const q of ["{!join from=a to=b}x", "pump {!join from=a to=b}x", 'x OR _query_:"{!join from=a to=b}y"', "_query_ :z", 'x OR _qu\\ery_:"{!join}y"']) {
      for (const within of [[], ["seal"]]) {
        const text = run(queryStep, request({ q, within })).get("q") ?? "";
        expect(hasLiveLocalParams(text)).toBe(false);
        expect(liveFields(text)).toEqual([]);
      }
    }
  });

  it("looks numbers up exactly in the item and manufacturer part number fields", () => {
    expect(numberQuery(" wr55x10942 ")).toBe('item_number_s:("wr55x10942" OR "WR55X10942") OR attribute_manufacturer_part_number_s:("wr55x10942" OR "WR55X10942") OR attribute_cmpn_s:("wr55x10942" OR "WR55X10942")');
    expect(numberQuery('A"1')).toBe('item_number_s:("A\\"1") OR attribute_manufacturer_part_number_s:("A\\"1") OR attribute_cmpn_s:("A\\"1")');
  });
});

describe("pagingStep", () => {
  it("sets start and rows, clamping negatives to 0, and sends no cursorMark", () => {
    const params = run(pagingStep, request({ start: 40, rows: 50 }));
    expect(params.get("start")).toBe("40");
    expect(params.get("rows")).toBe("50");
    expect(keys(params)).toEqual(["rows", "start"]);
    const negative = run(pagingStep, request({ start: -5, rows: -1 }));
    expect(negative.get("start")).toBe("0");
    expect(negative.get("rows")).toBe("0");
  });

  it("forces start=0 and passes the mark when iterating with a cursor", () => {
    const params = run(pagingStep, request({ start: 40, rows: 100 }), { cursorMark: "*" });
    expect(params.get("start")).toBe("0");
    expect(params.get("rows")).toBe("100");
    expect(params.get("cursorMark")).toBe("*");
    expect(run(pagingStep, request({ start: 7 }), { cursorMark: "AoEpdmlld3Nvbmlj" }).get("cursorMark")).toBe("AoEpdmlld3Nvbmlj");
  });
});

describe("sortStep", () => {
  it("sorts by relevance (score desc) when no sort is given, and sets only sort", () => {
    const params = run(sortStep, request({ sort: null }));
    expect(params.get("sort")).toBe("score desc");
    expect(keys(params)).toEqual(["sort"]);
  });

  it("sorts by the given field and direction", () => {
    expect(run(sortStep, request({ sort: { field: "manufacturer_s", direction: "asc" } })).get("sort")).toBe("manufacturer_s asc");
    expect(run(sortStep, request({ sort: { field: "attribute_quantity_on_hand_i", direction: "desc" } })).get("sort")).toBe(
      "attribute_quantity_on_hand_i desc",
    );
  });

  it("sorts a text field by its string copy, which Solr can sort (a `_t` field it cannot)", () => {
    expect(run(sortStep, request({ sort: { field: "item_description_t", direction: "asc" } })).get("sort")).toBe("item_description_s asc");
    expect(run(sortStep, request({ sort: { field: "item_description_t", direction: "desc" } }), { cursorMark: "*" }).get("sort")).toBe(
      "item_description_s desc, id asc",
    );
  });

  it("adds the id tie-breaker for cursor iteration", () => {
    expect(run(sortStep, request({ sort: { field: "item_number_s", direction: "desc" } }), { cursorMark: "*" }).get("sort")).toBe(
      "item_number_s desc, id asc",
    );
    expect(run(sortStep, request({ sort: null }), { cursorMark: "*" }).get("sort")).toBe("id asc");
  });

  it("refuses a field name with a space, a parenthesis or a comma and sorts by relevance instead", () => {
    for (const field of ["item number_s", "div(price_d,0)", "price_d)", "x desc, id", "{!func}x", ""]) {
      expect(sortParam({ field, direction: "asc" }, false)).toBe("score desc");
    }
    expect(sortParam({ field: "bad field", direction: "asc" }, true)).toBe("id asc");
  });
});

describe("filterStep", () => {
  it("ORs the include values of one facet into ONE fq tagged {key}_tag", () => {
    const params = run(filterStep, request({ filters: [include("org_code_s", "M01"), include("org_code_s", "M02")] }));
    expect(params.getAll("fq")).toEqual(['{!tag=org_code_tag}org_code_s:("M01" OR "M02")']);
    expect(keys(params)).toEqual(["fq"]);
  });

  it("negates exclude values in their own fq tagged {key}_tag_exclude", () => {
    const fqs = filterQueries(
      [include("attribute_status_s", "Active"), exclude("attribute_status_s", "Obsolete"), exclude("attribute_status_s", "Hold")],
      config,
    );
    expect(fqs).toEqual([
      '{!tag=status_tag}attribute_status_s:("Active")',
      '{!tag=status_tag_exclude}-attribute_status_s:("Obsolete" OR "Hold")',
    ]);
  });

  it("gives each facet its own fq, appended as repeated fq parameters", () => {
    const params = run(filterStep, request({ filters: [include("org_code_s", "M01"), include("category_s", "Pumps"), include("org_code_s", "M02")] }));
    expect(params.getAll("fq")).toEqual(['{!tag=org_code_tag}org_code_s:("M01" OR "M02")', '{!tag=category_tag}category_s:("Pumps")']);
  });

  it("maps a facet name without a type suffix to the configured facet field, else gives it _s", () => {
    expect(filterQueries([include("status", "Active")], config)).toEqual(['{!tag=status_tag}attribute_status_s:("Active")']);
    expect(filterQueries([include("category", "Pumps")], config)).toEqual(['{!tag=category_tag}category_s:("Pumps")']);
    expect(filterQueries([include("colour", "Red")], config)).toEqual(['{!tag=colour_tag}colour_s:("Red")']);
    expect(filterQueries([include("notes_t", "x")], config)).toEqual(['{!tag=notes_tag}notes_t:("x")']);
  });

  it("drops a filter whose field name is not a plain field name", () => {
    expect(filterQueries([include("org code", "x"), include("a)b", "y"), include("{!join}f", "z")], config)).toEqual([]);
  });

  const hostile: Array<[string, string]> = [
    ['A&B "x" (y)', '{!tag=manufacturer_tag}manufacturer_s:("A&B \\"x\\" (y)")'],
    ["{!join from=a to=b}", '{!tag=manufacturer_tag}manufacturer_s:("{!join from=a to=b}")'],
    ["back\\slash", '{!tag=manufacturer_tag}manufacturer_s:("back\\\\slash")'],
    [" OR ", '{!tag=manufacturer_tag}manufacturer_s:(" OR ")'],
    ["Größe 部品 🔧 ñ", '{!tag=manufacturer_tag}manufacturer_s:("Größe 部品 🔧 ñ")'],
    ['ends with \\', '{!tag=manufacturer_tag}manufacturer_s:("ends with \\\\")'],
    ['x") OR *:* OR ("', '{!tag=manufacturer_tag}manufacturer_s:("x\\") OR *:* OR (\\"")'],
  ];

  it.each(hostile)("keeps the value %j as ONE phrase-quoted literal", (value, expected) => {
    const [fq] = filterQueries([include("manufacturer_s", value)], config);
    expect(fq).toBe(expected);
    const read = readFq(fq ?? "");
    expect(read).toEqual({ tag: "manufacturer_tag", negated: false, field: "manufacturer_s", values: [value] });
  });

  it("keeps several hostile values of one facet as separate literals, includes and excludes alike", () => {
    const values = hostile.map(([value]) => value);
    const fqs = filterQueries([...values.map((v) => include("manufacturer_s", v)), ...values.map((v) => exclude("manufacturer_s", v))], config);
    expect(fqs).toHaveLength(2);
    expect(readFq(fqs[0] ?? "")).toEqual({ tag: "manufacturer_tag", negated: false, field: "manufacturer_s", values });
    expect(readFq(fqs[1] ?? "")).toEqual({ tag: "manufacturer_tag_exclude", negated: true, field: "manufacturer_s", values });
  });

  it("phrase-quotes with only quote and backslash escaped", () => {
    expect(solrPhrase('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(solrPhrase("")).toBe('""');
  });
});

describe("the stock level", () => {
  const below = "if(and(exists(attribute_quantity_on_hand_i),exists(attribute_org_min_stock_level_i),lt(attribute_quantity_on_hand_i,attribute_org_min_stock_level_i)),1,0)";

  it("filters as a function range over the two fields: below minimum included, or the rest when excluded", () => {
    expect(filterQueries([include("stock_level", "Below minimum")], config)).toEqual([`{!frange l=1 tag=stock_level_tag}${below}`]);
    expect(filterQueries([exclude("stock_level_s", "Below minimum"), include("category", "Pumps")], config)).toEqual([
      `{!frange u=0 tag=stock_level_tag_exclude}${below}`,
      '{!tag=category_tag}category_s:("Pumps")',
    ]);
  });

  it("sends any other value as a quoted value of a field no item has, so it finds nothing", () => {
    expect(filterQueries([include("stock_level", 'x") OR *:* ("')], config)).toEqual(['{!tag=stock_level_tag}stock_level_s:("x\\") OR *:* (\\"")']);
  });

  it("counts the items below minimum as a query facet, its own filter excluded", () => {
    const spec = JSON.parse(run(facetStep, request({ facetFields: ["stock_level_s"] })).get("json.facet") ?? "null");
    expect(spec).toEqual({ stock_level_s: { type: "query", q: `{!frange l=1}${below}`, domain: { excludeTags: "stock_level_tag" } } });
  });
});

describe("facetStep", () => {
  it("asks for a terms facet per field with limit 100 and the facet's own include tag excluded", () => {
    const params = run(facetStep, request({ facetFields: ["org_code_s", "attribute_status_s"] }));
    expect(keys(params)).toEqual(["json.facet"]);
    expect(JSON.parse(params.get("json.facet") ?? "null")).toEqual({
      org_code_s: { type: "terms", field: "org_code_s", limit: 100, mincount: 1, domain: { excludeTags: "org_code_tag" } },
      attribute_status_s: { type: "terms", field: "attribute_status_s", limit: 100, mincount: 1, domain: { excludeTags: "status_tag" } },
    });
  });

  it("maps a facet name without suffix like a filter name, so the tags match", () => {
    const spec = JSON.parse(run(facetStep, request({ facetFields: ["status"] })).get("json.facet") ?? "null");
    expect(spec).toEqual({
      attribute_status_s: { type: "terms", field: "attribute_status_s", limit: 100, mincount: 1, domain: { excludeTags: "status_tag" } },
    });
    const [fq] = filterQueries([include("status", "Active")], config);
    expect(fq).toMatch(/^\{!tag=status_tag\}/);
  });

  it("sends no facet specification when no facets are asked for", () => {
    expect(keys(run(facetStep, request({ facetFields: [] })))).toEqual([]);
  });
});

describe("highlightStep", () => {
  it("asks for highlights with fragsize 150, 51200 analysed chars and the control-character markers as tags", () => {
    const params = run(highlightStep, request({ q: "pump" }));
    expect(params.get("hl")).toBe("true");
    expect(params.get("hl.fragsize")).toBe("150");
    expect(params.get("hl.maxAnalyzedChars")).toBe("51200");
    expect(params.get("hl.tag.pre")).toBe("\u0001");
    expect(params.get("hl.tag.post")).toBe("\u0002");
    expect(params.get("hl.simple.pre")).toBe(HL_PRE);
    expect(params.get("hl.simple.post")).toBe(HL_POST);
    expect(params.get("hl.fl")?.split(",")).toContain("item_description_t");
    expect(keys(params).every((k) => k === "hl" || k.startsWith("hl."))).toBe(true);
  });

  it("asks for nothing when highlighting is turned off", () => {
    expect(keys(run(highlightStep, request({ q: "pump", highlight: false })))).toEqual([]);
  });
});

describe("spellcheckStep", () => {
  it("asks for spell-check collations for a real query", () => {
    const params = run(spellcheckStep, request({ q: " cemera -x " }));
    expect(params.get("spellcheck")).toBe("true");
    expect(params.get("spellcheck.q")).toBe("cemera -x");
    expect(params.get("spellcheck.collate")).toBe("true");
    expect(keys(params).every((k) => k === "spellcheck" || k.startsWith("spellcheck."))).toBe(true);
  });

  it("asks for nothing without a real query (empty, blank, match-all, or only within terms)", () => {
    for (const req of [request({ q: "" }), request({ q: "  " }), request({ q: "*:*" }), request({ q: "", within: ["seal"] })]) {
      expect(keys(run(spellcheckStep, req))).toEqual([]);
    }
  });
});

describe("buildQuery", () => {
  it("runs every step in order into one parameter list", () => {
    const params = buildQuery(
      request({ q: "pump", within: ["seal"], filters: [include("org_code_s", "M01")], sort: { field: "item_number_s", direction: "asc" }, start: 20, rows: 20, facetFields: ["org_code_s"] }),
      config,
      { collection: "parts" },
    );
    expect(params.get("q")).toBe("+pump +seal");
    expect(params.get("sort")).toBe("item_number_s asc");
    expect(params.get("start")).toBe("20");
    expect(params.getAll("fq")).toEqual(['{!tag=org_code_tag}org_code_s:("M01")']);
    expect(params.get("collection")).toBe("parts");
    expect(params.has("json.facet")).toBe(true);
    expect(params.get("hl")).toBe("true");
    expect(params.get("spellcheck")).toBe("true");
    expect(params.has("cursorMark")).toBe(false);
  });

  it("builds cursor requests without facets, highlights or spell-check", () => {
    const params = buildQuery(request({ q: "pump", facetFields: ["org_code_s"], start: 40 }), config, { cursorMark: "*" }, CURSOR_STEPS);
    expect(params.get("cursorMark")).toBe("*");
    expect(params.get("start")).toBe("0");
    expect(params.get("sort")).toBe("id asc");
    expect(params.has("json.facet")).toBe(false);
    expect(params.has("hl")).toBe(false);
    expect(params.has("spellcheck")).toBe(false);
  });
});

describe("solrFacetField", () => {
  it("maps filter names for Solr: configured field, suffixed name, or _s appended", () => {
    expect(solrFacetField("status", config)).toBe("attribute_status_s");
    expect(solrFacetField("org_code", config)).toBe("org_code_s");
    expect(solrFacetField("category_s", config)).toBe("category_s");
    expect(solrFacetField("colour_t", config)).toBe("colour_t");
    expect(solrFacetField("colour", config)).toBe("colour_s");
  });
});
