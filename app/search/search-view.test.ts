import { describe, expect, it } from "vitest";
import type { Doc } from "./engine";
import { DEFAULT_SEARCH_CONFIG } from "./search-config";
import { buildSearchView, widerSearchOf } from "./search-view";
import { EMPTY_STATE, type SearchState } from "./state";

const IMAGE_HOST = "https://images.example.com";

/** The image a result row shows for an item whose image field holds `src`. */
function rowImage(src: unknown, imageHosts: readonly string[] = [IMAGE_HOST]): string | null {
  const doc = { id: "1", item_number_s: "ITM-1", primary_image_url_s: src } as unknown as Doc;
  const view = buildSearchView({
    state: EMPTY_STATE,
    response: { docs: [doc], total: 1, facets: [], highlighting: {} },
    config: DEFAULT_SEARCH_CONFIG,
    imageHosts,
  });
  return view.rows[0]!.image;
}

describe("result rows' stock locator", () => {
  const rowOf = (fields: Record<string, unknown>) =>
    buildSearchView({
      state: EMPTY_STATE,
      response: { docs: [{ id: "1", item_number_s: "ITM-1", ...fields } as unknown as Doc], total: 1, facets: [], highlighting: {} },
      config: DEFAULT_SEARCH_CONFIG,
      imageHosts: [],
    }).rows[0]!;

  it("is the item's, whatever suffix the engine gave the field, and null when blank or absent", () => {
    expect(rowOf({ attribute_stock_locator_s: "H-35-03" }).locator).toBe("H-35-03");
    expect(rowOf({ stock_locator: "B-30-09" }).locator).toBe("B-30-09");
    expect(rowOf({ attribute_stock_locator_s: "  " }).locator).toBeNull();
    expect(rowOf({}).locator).toBeNull();
  });
});

describe("result rows' images follow IMAGE_HOSTS, as the item page's do", () => {
  it.each([
    ["a backslash after the slash", "/\\evil.example/x.jpg"],
    ["an encoded backslash", "/%5cevil.example/x.jpg"],
    ["an encoded slash", "/%2fevil.example/x.jpg"],
    ["a dot segment that makes //host", "/.//evil.example/x.jpg"],
    ["a protocol-relative address", "//evil.example/x.jpg"],
    ["an https image of any other host", "https://evil.example/x.jpg"],
    ["an http image of any other host", "http://evil.example/x.jpg"],
    ["a javascript: address", "javascript:alert(1)"],
    ["a data: address", "data:image/svg+xml,<svg onload=alert(1)>"],
    ["a tab inside the address", "/\t/evil.example/x.jpg"],
    ["no text", 42],
  ])("refuse %s", (_what, src) => {
    expect(rowImage(src)).toBeNull();
  });

  it("show an image of the portal and one of an allowed host", () => {
    expect(rowImage("/images/parts/ITM-1.jpg")).toBe("/images/parts/ITM-1.jpg");
    expect(rowImage(`${IMAGE_HOST}/parts/ITM-1.jpg`)).toBe(`${IMAGE_HOST}/parts/ITM-1.jpg`);
  });

  it("refuse an allowed host's image when IMAGE_HOSTS does not name it", () => {
    expect(rowImage(`${IMAGE_HOST}/parts/ITM-1.jpg`, [])).toBeNull();
  });
});

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
