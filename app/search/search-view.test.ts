import { describe, expect, it } from "vitest";
import { DEFAULT_SEARCH_CONFIG } from "./search-config";
import { EMPTY_STATE, type SearchState } from "./state";
import { widerSearchOf } from "./search-view";

const config = DEFAULT_SEARCH_CONFIG;
const state = (extra: Partial<SearchState>): SearchState => ({ ...EMPTY_STATE, q: "thermostat", ...extra });

describe("widerSearchOf", () => {
  it("names the filters that left nothing and links to the query alone", () => {
    const wider = widerSearchOf(state({ filters: [{ field: "category_s", value: "Pumps", type: "include" }], sort: null, rows: 50 }), config, 1240);
    expect(wider).toEqual({ scope: "0 in Category: Pumps", label: "1,240 in all items", href: "/crib-search/search?q=thermostat&rows=50" });
  });

  it("says which filters exclude", () => {
    const wider = widerSearchOf(
      state({ filters: [{ field: "category_s", value: "Pumps", type: "include" }, { field: "attribute_status_s", value: "Inactive", type: "exclude" }] }),
      config,
      3,
    );
    expect(wider?.scope).toBe("0 in Category: Pumps, Status: not Inactive");
  });

  it("is nothing without filters or when the query finds nothing anywhere", () => {
    expect(widerSearchOf(state({}), config, 12)).toBeNull();
    expect(widerSearchOf(state({ filters: [{ field: "category_s", value: "Pumps", type: "include" }] }), config, 0)).toBeNull();
  });
});
