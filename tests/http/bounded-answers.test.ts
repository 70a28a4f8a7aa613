/**
 * No request makes an HTML page or a JSON answer over 2 MB (issue: bounded requests). The largest
 * answers a URL can ask for: the most filters of the longest values, each character encoded, with
 * 100 rows; the longest query; items, BOMs and Where Used with the longest way back. What a page
 * costs in time is measured by `npm run bench:load`, not here.
 */
import { describe, expect, it } from "vitest";
import { searchUrl } from "../search-urls";
import { get } from "./server";

const MAX_BYTES = 2_000_000;
const FACETS = ["org_code", "category", "manufacturer", "item_type", "status"];

/** 20 exclude filters of 200 characters (they exclude nothing, so every item stays in the results). */
function longFilters(char: string): string[] {
  return Array.from({ length: 20 }, (_, i) => `${FACETS[i % FACETS.length]}:${String(i).padStart(2, "0")}${char.repeat(198)}`);
}

async function bytesOf(path: string): Promise<{ status: number; bytes: number; body: string }> {
  const response = await get(path);
  const body = await response.text();
  return { status: response.status, bytes: Buffer.byteLength(body), body };
}

describe("answers stay under 2 MB", () => {
  const searches: [string, Record<string, string | string[]>][] = [
    ["20 filters of 200 letters, 100 rows", { nf: longFilters("x"), rows: "100" }],
    ["20 filters of 200 characters each encoded (&), 100 rows", { nf: longFilters("&"), rows: "100" }],
    ["20 filters of 200 two-byte characters, 100 rows", { nf: longFilters("é").map((f) => f.slice(0, 80)), rows: "100" }],
    ["the longest query, encoded, with filters and terms", { q: "&".repeat(500), nf: longFilters("&").slice(0, 6), within: ["&".repeat(500), "-b"], rows: "100" }],
    ["the longest query of four-byte characters", { q: "😀".repeat(500), rows: "100" }],
  ];
  it.each(searches)("a search page: %s", async (name, params) => {
    const { status, bytes, body } = await bytesOf(searchUrl(params));
    expect(status, name).toBe(200);
    expect(body).toContain("results");
    expect(bytes, name).toBeLessThan(MAX_BYTES);
  });

  it("a search page with 20 long filters still lists results and facet values", async () => {
    const { body } = await bytesOf(searchUrl({ nf: longFilters("x"), rows: "100" }));
    expect(body).toMatch(/\b1000 results\b/);
    expect((body.match(/class="facet-value"/g) ?? []).length).toBeGreaterThan(0);
  });

  it("the search API at its most rows, with facets", async () => {
    const filters = JSON.stringify({ category_s: Array.from({ length: 20 }, (_, i) => ({ value: `${i}${"x".repeat(190)}`, type: "exclude" })) });
    const { status, bytes } = await bytesOf(`/api/search?${new URLSearchParams({ rows: "100", facets: "category_s,manufacturer_s,org_code_s", filters })}`);
    expect([200, 400]).toContain(status);
    expect(bytes).toBeLessThan(MAX_BYTES);
  });

  it("an item's page, its BOM and its Where Used, with the longest way back", async () => {
    const item = ((await (await get("/api/search?rows=1")).json()) as { data: { docs: { item_number_s: string }[] } }).data.docs[0]!.item_number_s;
    const back = searchUrl({ q: "&".repeat(400), nf: longFilters("&").slice(0, 8) });
    for (const path of [`/product/${encodeURIComponent(item)}`, `/bom/${encodeURIComponent(item)}`, `/where-used/${encodeURIComponent(item)}`]) {
      const { status, bytes } = await bytesOf(`${path}?${new URLSearchParams({ back })}`);
      expect([200, 404], path).toContain(status);
      expect(bytes, path).toBeLessThan(MAX_BYTES);
    }
  });
});
