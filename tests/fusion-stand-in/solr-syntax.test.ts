import { describe, expect, it } from "vitest";
import {
  parseFacetFieldParam,
  parseFilterQuery,
  parseBomNumberFilter,
  parseProductQuery,
  parseSort,
  solrPhrase,
  SolrSyntaxError,
} from "./solr-syntax";
import { candidates, check, levenshtein } from "./spellcheck";
import { BELOW_MINIMUM, STOCK_LEVEL_FIELD } from "../../app/search/catalog-fields";
import { filterQueries } from "../../app/search/engines/fusion/query-builder";
import { DEFAULT_SEARCH_CONFIG } from "../../app/search/search-config";

const HOSTILE = [
  'He said "hi"',
  "back\\slash",
  "trailing\\",
  '\\"',
  "(a) OR (b)",
  ' OR "x"',
  "{!join from=id to=id}org_code_s:MON",
  "a:b",
  "ünïcödé ✓ 𝄞",
  ")",
  "",
  "  spaces  ",
];

const fq = (tag: string, field: string, values: string[], exclude = false) =>
  `{!tag=${tag}}${exclude ? "-" : ""}${field}:(${values.map(solrPhrase).join(" OR ")})`;

describe("parseFilterQuery", () => {
  it("round-trips every hostile value exactly, alone and OR-ed", () => {
    for (const value of HOSTILE) {
      expect(parseFilterQuery(fq("org_code_tag", "org_code_s", [value]))).toEqual({
        tag: "org_code_tag",
        field: "org_code_s",
        type: "include",
        values: [value],
      });
    }
    expect(parseFilterQuery(fq("status_tag_exclude", "attribute_status_s", HOSTILE, true))).toEqual({
      tag: "status_tag_exclude",
      field: "attribute_status_s",
      type: "exclude",
      values: HOSTILE,
    });
  });

  it("rejects every other shape with a Solr syntax error", () => {
    const bad = [
      "org_code_s:MON",
      'org_code_s:("MON")',
      '{!tag=org_code_tag}org_code_s:"MON"',
      '{!tag=org_code_tag}org_code_s:("MON"',
      '{!tag=org_code_tag}org_code_s:("MON)',
      '{!tag=org_code_tag}org_code_s:("MON" "LOU")',
      '{!tag=org_code_tag}org_code_s:("MON" AND "LOU")',
      '{!tag=org_code_tag}org_code_s:("MON") OR id:("x")',
      '{!tag=org_code_tag}-org_code_s:("MON")',
      '{!tag=org_code_tag_exclude}org_code_s:("MON")',
      '{!join from=id to=id}org_code_s:("MON")',
      '{!tag=org_code_tag}org_code_s:()',
      '{!tag=org_code_tag}org code:("MON")',
      '{!tag=org_code_tag}org_code_s:("MON\\',
      "",
    ];
    for (const value of bad) {
      expect(() => parseFilterQuery(value), value).toThrow(SolrSyntaxError);
      try {
        parseFilterQuery(value);
      } catch (error) {
        expect((error as Error).message).toMatch(/^org\.apache\.solr\.search\.SyntaxError: Cannot parse '/);
      }
    }
  });
});

describe("the stock level's function range", () => {
  const config = DEFAULT_SEARCH_CONFIG;
  it("reads the client's own range filters as the stock level's value, included or excluded", () => {
    const [below] = filterQueries([{ field: STOCK_LEVEL_FIELD, value: BELOW_MINIMUM, type: "include" }], config);
    const [rest] = filterQueries([{ field: STOCK_LEVEL_FIELD, value: BELOW_MINIMUM, type: "exclude" }], config);
    expect(parseFilterQuery(below!)).toEqual({ tag: "stock_level_tag", field: STOCK_LEVEL_FIELD, type: "include", values: [BELOW_MINIMUM] });
    expect(parseFilterQuery(rest!)).toEqual({ tag: "stock_level_tag_exclude", field: STOCK_LEVEL_FIELD, type: "exclude", values: [BELOW_MINIMUM] });
  });

  it("rejects another function, other bounds or a tag of the wrong polarity", () => {
    const [below] = filterQueries([{ field: STOCK_LEVEL_FIELD, value: BELOW_MINIMUM, type: "include" }], config);
    for (const value of [below!.replace("lt(", "gt("), below!.replace("l=1", "l=0"), below!.replace("stock_level_tag", "stock_level_tag_exclude"), "{!frange l=1}"]) {
      expect(() => parseFilterQuery(value), value).toThrow(SolrSyntaxError);
    }
  });
});

describe("other request syntax", () => {
  it("reads the product lookup query, and nothing else", () => {
    for (const value of HOSTILE) {
      const phrase = solrPhrase(value);
      expect(parseProductQuery(`item_number_s:${phrase} OR id:${phrase}`)).toEqual({ itemNumber: value, id: value });
    }
    expect(parseProductQuery("pump")).toBeNull();
    expect(parseProductQuery('item_number_s:"a"')).toBeNull();
    expect(parseProductQuery('item_number_s:"a" OR id:"a" OR x')).toBeNull();
    expect(parseProductQuery('item_number_s:"a OR id:"a"')).toBeNull();
  });

  it("reads the BOM filters on either number, quoted or bare", () => {
    const item = (value: string) => ({ field: "item_number", value });
    expect(parseBomNumberFilter('item_number_s:"A/B 1"')).toEqual(item("A/B 1"));
    expect(parseBomNumberFilter(`item_number_s:${solrPhrase('x"\\y')}`)).toEqual(item('x"\\y'));
    expect(parseBomNumberFilter("item_number_s:WR55X10942")).toEqual(item("WR55X10942"));
    expect(parseBomNumberFilter("item_number_s:DG23\\-03481C")).toEqual(item("DG23-03481C"));
    expect(parseBomNumberFilter(`asset_number_s:${solrPhrase("AST-00012")}`)).toEqual({ field: "asset_number", value: "AST-00012" });
    expect(parseBomNumberFilter("asset_number_s:PM\\-00003")).toEqual({ field: "asset_number", value: "PM-00003" });
    expect(() => parseBomNumberFilter("type_s:asset")).toThrow(SolrSyntaxError);
    expect(() => parseBomNumberFilter('item_number_s:"open')).toThrow(SolrSyntaxError);
  });

  it("reads sort specs with Solr's message for a missing direction", () => {
    expect(parseSort("score desc")).toEqual([{ field: "score", direction: "desc" }]);
    expect(parseSort("attribute_list_price_d DESC, id asc")).toEqual([
      { field: "attribute_list_price_d", direction: "desc" },
      { field: "id", direction: "asc" },
    ]);
    expect(() => parseSort("price")).toThrow(/Can't determine a Sort Order \(asc or desc\) in sort spec 'price'/);
  });

  it("strips local params from facet.field", () => {
    expect(parseFacetFieldParam("{!ex=dt key=types}doctype")).toEqual({ key: "types", field: "doctype" });
    expect(parseFacetFieldParam("org_code_s")).toEqual({ key: "org_code_s", field: "org_code_s" });
  });
});

describe("spell checking", () => {
  const vocabulary = { freq: new Map([["pump", 9], ["pumps", 2], ["valve", 5], ["drain", 4]]) };

  it("measures edit distance with an early exit", () => {
    expect(levenshtein("pmup", "pump")).toBe(2);
    expect(levenshtein("kitten", "sitting")).toBe(3);
    expect(levenshtein("kitten", "sitting", 2)).toBe(3);
    expect(levenshtein("", "abc")).toBe(3);
  });

  it("collates by replacing unknown words and keeps the query's shape", async () => {
    const result = await check("(Drian pmup) AND valve", vocabulary, async () => false, 1);
    expect(result.collation).toBe("(drain pump) AND valve");
    expect(result.misspellings.map((m) => [m.original, m.suggestions[0]?.word])).toEqual([
      ["Drian", "drain"],
      ["pmup", "pump"],
    ]);
    expect(candidates("pumq", vocabulary, 3).map((c) => c.word)).toEqual(["pump", "pumps"]);
    expect((await check("zzzzzz", vocabulary, async () => false, 1)).collation).toBeNull();
    expect((await check("whirlpool", vocabulary, async () => true, 1)).misspellings).toEqual([]);
  });
});
