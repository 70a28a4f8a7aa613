/**
 * Hostile and malformed search parameters over HTTP: every one answers 200 (after the redirect to
 * the canonical URL) or 400, never a 500, and markup from the URL only appears escaped. That the
 * escaped markup never runs in a browser is checked by tests/e2e/hostile-params.spec.ts.
 */
import { describe, expect, it } from "vitest";
import { SEARCH_PATH, searchUrl, urlWith } from "../search-urls";
import { get } from "./server";

const SCRIPT = "<script>alert(1)</script>";

function expectHandled(response: Response, what: string) {
  expect([200, 400], `${what} answered ${response.status} at ${response.url}`).toContain(response.status);
}

/** No `<script>alert` in the HTML: the value only appears escaped. */
async function expectNoRawScript(response: Response, what: string) {
  const html = await response.text();
  expect(html.toLowerCase().includes("<script>alert"), `${what}: unescaped script in the HTML`).toBe(false);
}

describe("hostile search parameters", () => {
  // Bad values of the URL contract fall back to the defaults: the canonical URL drops them.
  const toDefault: [string, Record<string, string>][] = [
    ["page=-1", { page: "-1" }],
    ["page=abc", { page: "abc" }],
    ["page=0", { page: "0" }],
    ["page=1e3", { page: "1e3" }],
    ["page=99999999999999999999", { page: "99999999999999999999" }],
    ["rows=100000", { rows: "100000" }],
    ["rows=-20", { rows: "-20" }],
    ["sort=nosuchfield asc", { sort: "nosuchfield asc" }],
    ["sort=org_code sideways", { sort: "org_code sideways" }],
    ["f=nosuchfacet:x", { f: "nosuchfacet:x" }],
    ["f without a colon", { f: "category" }],
    ["nf=nosuchfacet:x", { nf: "nosuchfacet:x" }],
    ["within=blank", { within: "   " }],
  ];
  it.each(toDefault)("%s answers with the default search", async (name, params) => {
    const response = await get(searchUrl(params));
    expect(response.status, name).toBe(200);
    expect(urlWith(SEARCH_PATH)(new URL(response.url)), `${name} ends at ${response.url}`).toBe(true);
  });

  it("sort=item_description_t asc (a text field) sorts like every column (decision 043), named by its key", async () => {
    const response = await get(searchUrl({ sort: "item_description_t asc" }));
    expect(response.status).toBe(200);
    expect(new URL(response.url).searchParams.get("sort")).toBe("item_description asc");
  });

  const odd: [string, Record<string, string>][] = [
    ["a 10,000-character q", { q: "pump ".repeat(2000) }],
    ["q={!join from=a to=b}x", { q: "{!join from=a to=b}x" }],
    ["q with an unbalanced quote", { q: '"pump' }],
    ["q of quotes only", { q: '"""' }],
    ["q with brackets", { q: "[1 TO *] {a TO b} (((" }],
    ["q with Lucene and FTS syntax", { q: 'pump AND NOT (valve OR "seal"~2) NEAR(a b) title:x* ^2 \\ / -' }],
    ["q with a null byte", { q: "pu\u0000mp" }],
    ["f with a null byte", { f: "category:\u0000" }],
    ["within with a null byte and brackets", { q: "pump", within: "a\u0000]" }],
    ["f=category:<script>", { f: `category:${SCRIPT}` }],
    ["nf=category:<script>", { nf: `category:${SCRIPT}` }],
    ["q=<script>", { q: SCRIPT }],
    ["within=<script>", { q: "pump", within: SCRIPT }],
    ["a facet search term with markup", { "facet-manufacturer": SCRIPT }],
    ["a lone surrogate", { q: "\uD800pump" }],
  ];
  it.each(odd)("%s answers 200 or 400, never 500", async (name, params) => {
    const response = await get(searchUrl(params));
    expectHandled(response, name);
    await expectNoRawScript(response, name);
  });

  it("a 10,000-character q is cut to 500 characters", async () => {
    const response = await get(searchUrl({ q: "x".repeat(10_000) }));
    expect(response.status).toBe(200);
    expect(new URL(response.url).searchParams.get("q")).toBe("x".repeat(500));
  });

  it("null bytes are removed from the query", async () => {
    const response = await get(searchUrl({ q: "pu\u0000mp" }));
    expect(response.status).toBe(200);
    expect(urlWith(SEARCH_PATH, [["q", "pump"]])(new URL(response.url))).toBe(true);
  });

  it("the backend API answers bad parameters with 400, not 500", async () => {
    for (const query of [
      "rows=100000",
      "rows=abc",
      "start=-1",
      "sort=nosuchfield%20asc",
      "filters=%7Bnot%20json",
      `filters=${encodeURIComponent(JSON.stringify({ nosuchfield: [{ value: "x" }] }))}`,
      `q=${"x".repeat(600)}`,
    ]) {
      const response = await get(`/api/search?${query}`);
      expect(response.status, `/api/search?${query.slice(0, 60)}`).toBe(400);
      const body = await response.json();
      expect(body.error?.status, query.slice(0, 60)).toBe(400);
    }
    for (const query of [`q=${encodeURIComponent("{!join from=a to=b}x")}`, `q=${encodeURIComponent(SCRIPT)}`, "q=%22"]) {
      const response = await get(`/api/search?${query}`);
      expect(response.status, `/api/search?${query}`).toBe(200);
    }
  });
});
