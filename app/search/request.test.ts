import { describe, expect, it } from "vitest";
import { countRequestOf, cursorRequestOf, pageRequestOf, resultsRequestOf } from "./request";
import { DEFAULT_SEARCH_CONFIG } from "./search-config";
import { EMPTY_STATE, type SearchState } from "./state";

const state: SearchState = {
  ...EMPTY_STATE,
  q: "brass valve",
  page: 3,
  rows: 50,
  sort: { field: "item_number_s", direction: "desc" },
  filters: [
    { field: "category_s", value: "Valves", type: "include" },
    { field: "attribute_status_s", value: "Inactive", type: "exclude" },
  ],
  within: ["1/2"],
};
const query = { q: state.q, within: state.within, filters: state.filters, sort: state.sort };

describe("countRequestOf", () => {
  it("asks for the search's total alone: no rows, facets or highlights", () => {
    expect(countRequestOf(state)).toEqual({ ...query, start: 0, rows: 0, facetFields: [], highlight: false });
  });
});

describe("pageRequestOf", () => {
  it("asks for the rows from `start`, whatever page the state is on, without facets or highlights", () => {
    expect(pageRequestOf(state, 7, 3)).toEqual({ ...query, start: 7, rows: 3, facetFields: [], highlight: false });
  });

  it("carries nothing of the state but what chooses and orders its items", () => {
    expect(Object.keys(pageRequestOf(state, 0, 1)).sort()).toEqual(["facetFields", "filters", "highlight", "q", "rows", "sort", "start", "within"]);
  });

  it("takes a part of a state: a list of items by their numbers", () => {
    const filters = [{ field: "item_number_s", value: "ITM-1", type: "include" as const }];
    expect(pageRequestOf({ q: "", within: [], filters, sort: null }, 0, 1)).toEqual({ q: "", within: [], filters, sort: null, start: 0, rows: 1, facetFields: [], highlight: false });
  });
});

describe("resultsRequestOf", () => {
  it("asks for the state's page, with the panel's facets and highlights", () => {
    expect(resultsRequestOf(state, DEFAULT_SEARCH_CONFIG)).toEqual({ ...query, start: 100, rows: 50, facetFields: DEFAULT_SEARCH_CONFIG.facetFields, highlight: true });
  });

  it("starts at 0 on the first page", () => {
    expect(resultsRequestOf(EMPTY_STATE, DEFAULT_SEARCH_CONFIG)).toMatchObject({ q: "", start: 0, rows: EMPTY_STATE.rows });
  });
});

describe("cursorRequestOf", () => {
  it("asks for every item of the search up to the limit, in batches", () => {
    expect(cursorRequestOf(state, 500, 1200)).toEqual({ ...query, batchSize: 500, limit: 1200 });
  });
});
