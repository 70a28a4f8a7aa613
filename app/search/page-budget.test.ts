import { describe, expect, it } from "vitest";
import { DEFAULT_SEARCH_CONFIG } from "./search-config";
import { boundFacetValues, MIN_FACET_VALUES, ROW_BACK_MAX_BYTES, rowBackOf } from "./page-budget";
import { MAX_FILTER_VALUE_LENGTH, MAX_SEARCH_BYTES, parseSearchParams, searchBytes, serializeSearchState } from "./state";

const config = DEFAULT_SEARCH_CONFIG;

const facet = (n: number, selected: number[] = []) => ({
  values: Array.from({ length: n }, (_, i) => ({ value: `v${i}`, count: n - i, selected: selected.includes(i) ? "include" : null })),
});

describe("the search's size in a URL", () => {
  it("ignores the last filters, then the last terms, that take a search past MAX_SEARCH_BYTES", () => {
    const params = new URLSearchParams();
    for (let i = 0; i < 20; i++) params.append("nf", `category:${String(i).padStart(2, "0")}${"&".repeat(MAX_FILTER_VALUE_LENGTH - 2)}`);
    params.append("within", "pump");
    const state = parseSearchParams(params, config);
    expect(searchBytes(state, config)).toBeLessThanOrEqual(MAX_SEARCH_BYTES);
    // Each value is 600 bytes encoded: five fit, in the URL's order, and the short term after them.
    expect(state.filters.map((f) => f.value.slice(0, 2))).toEqual(["00", "01", "02", "03", "04"]);
    expect(state.within).toEqual(["pump"]);
    // The codec stays symmetric on what it keeps.
    expect(parseSearchParams(serializeSearchState(state, config), config)).toEqual(state);
  });

  it("leaves a search within the bound as it is", () => {
    const params = new URLSearchParams([["q", "pump"], ["f", "category:Pumps"], ["nf", "org_code:LOU"], ["within", "brass"]]);
    const state = parseSearchParams(params, config);
    expect(state.filters).toHaveLength(2);
    expect(state.within).toEqual(["brass"]);
  });
});

describe("the facet panel's share of a page", () => {
  it("lists every value of a short search's facets", () => {
    const facets = [facet(100), facet(100), facet(40)];
    expect(boundFacetValues(facets, 300, 100)).toEqual(facets);
  });

  it("lists fewer values, the first ones, when every link repeats a long search; selected values stay", () => {
    const [bounded] = boundFacetValues([facet(100, [90]), facet(100), facet(100), facet(100), facet(100)], MAX_SEARCH_BYTES, 50);
    expect(bounded!.values.length).toBeLessThan(100);
    expect(bounded!.values.length).toBeGreaterThanOrEqual(MIN_FACET_VALUES);
    expect(bounded!.values.map((v) => v.value)).toContain("v90");
    expect(bounded!.values[0]!.value).toBe("v0");
  });

  it("keeps a few values even when the links repeat a search too long for any", () => {
    const bounded = boundFacetValues([facet(100), facet(100)], 10 * MAX_SEARCH_BYTES, 100);
    for (const f of bounded) expect(f.values).toHaveLength(MIN_FACET_VALUES);
  });

  it("never lists a value that could not be a filter", () => {
    const long = { value: "x".repeat(MAX_FILTER_VALUE_LENGTH + 1), count: 9, selected: null };
    const [bounded] = boundFacetValues([{ values: [long, { value: "a", count: 1, selected: null }] }], 100, 20);
    expect(bounded!.values.map((v) => v.value)).toEqual(["a"]);
  });
});

describe("the rows' way back", () => {
  it("is the page's address while it is short, else the search without its filters, else the search page", () => {
    const short = "/crib-search/search?q=pump";
    expect(rowBackOf(short, () => "unused")).toBe(short);
    const long = `/crib-search/search?q=pump&nf=${"x".repeat(ROW_BACK_MAX_BYTES)}`;
    expect(rowBackOf(long, () => short)).toBe(short);
    expect(rowBackOf(long, () => long)).toBe("/crib-search/search");
  });
});
