import { describe, expect, it } from "vitest";
import type { Doc } from "./engine";
import { DEFAULT_SEARCH_CONFIG } from "./search-config";
import { buildSearchView } from "./search-view";
import { EMPTY_STATE } from "./state";

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
