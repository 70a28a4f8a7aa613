import type { LoaderFunctionArgs } from "@remix-run/node";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTemporaryCatalog } from "./setup-catalog";

const { dir } = useTemporaryCatalog(600);

type Loader = (args: LoaderFunctionArgs) => Promise<Response> | Response;
let routes: Record<string, Loader>;

beforeAll(async () => {
  routes = {
    search: (await import("~/routes/api.search")).loader,
    suggestions: (await import("~/routes/api.suggestions")).loader,
    products: (await import("~/routes/api.products._index")).loader,
    product: (await import("~/routes/api.products.$id")).loader,
    facets: (await import("~/routes/api.facets")).loader,
    health: (await import("~/routes/api.health")).loader,
    ready: (await import("~/routes/api.ready")).loader,
    config: (await import("~/routes/api.config")).loader,
  };
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function call(route: string, query = "", init: { params?: Record<string, string>; headers?: Record<string, string> } = {}) {
  const request = new Request(`http://localhost/api/${route}${query}`, { headers: init.headers });
  const response = await routes[route]!({ request, params: init.params ?? {}, context: {} });
  return { response, body: (await response.json()) as any };
}

describe("/api/search", () => {
  it("answers every item in the data envelope for an empty query", async () => {
    const { response, body } = await call("search", "?q=");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/application\/json/);
    expect(body.data.numFound).toBe(600);
    expect(body.data.docs).toHaveLength(20);
    expect(body.data.facets.map((f: { field: string }) => f.field)).toEqual([
      "org_code_s", "category_s", "manufacturer_s", "attribute_status_s", "attribute_item_type_s", "stock_level_s",
    ]);
  });

  it("applies filters given as JSON text, by key or full field name", async () => {
    const all = await call("search", "?rows=0");
    const org = all.body.data.facets[0].values[0];
    const filters = encodeURIComponent(JSON.stringify({ org_code: [{ value: org.value, type: "include" }] }));
    const { body } = await call("search", `?rows=100&filters=${filters}`);
    expect(body.data.numFound).toBe(org.count);
    expect(body.data.docs.every((d: { org_code_s: string }) => d.org_code_s === org.value)).toBe(true);
    const excluded = await call("search", `?rows=0&filters=${encodeURIComponent(JSON.stringify({ org_code_s: [{ value: org.value, type: "exclude" }] }))}`);
    expect(excluded.body.data.numFound).toBe(600 - org.count);
  });

  it("filters and counts by the stock level, by key or name, as the product backend is asked", async () => {
    const all = await call("search", "?rows=0&facets=stock_level");
    const [below] = all.body.data.facets.find((f: { field: string }) => f.field === "stock_level_s").values;
    expect(below.value).toBe("Below minimum");
    const only = (type: string, name = "stock_level") => encodeURIComponent(JSON.stringify({ [name]: [{ value: "Below minimum", type }] }));
    const { body } = await call("search", `?rows=100&filters=${only("include")}`);
    expect(body.data.numFound).toBe(below.count);
    expect(body.data.docs.every((d: Record<string, number>) => d.attribute_quantity_on_hand_i! < d.attribute_org_min_stock_level_i!)).toBe(true);
    const rest = await call("search", `?rows=0&filters=${only("exclude", "stock_level_s")}`);
    expect(rest.body.data.numFound).toBe(600 - below.count);
  });

  it("sorts by the backend rule", async () => {
    const { body } = await call("search", "?rows=50&sort=org_code");
    const codes = body.data.docs.map((d: { org_code_s?: string }) => d.org_code_s ?? "~");
    expect(codes).toEqual([...codes].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
  });

  it.each([
    ["?rows=500", /rows: at most 100/],
    ["?start=-1", /start: at least 0/],
    ["?sort=password%20asc", /sort/],
    ["?filters=%7Bnot%20json", /filters: expected JSON text/],
    ["?filters=%7B%22secret_field%22%3A%5B%7B%22value%22%3A%22x%22%7D%5D%7D", /unknown field/],
    [`?q=${"x".repeat(501)}`, /q: at most 500 characters/],
    ["?facets=nope", /unknown facet/],
  ])("answers 400 with the error envelope for %s", async (query, message) => {
    const { response, body } = await call("search", query);
    expect(response.status).toBe(400);
    expect(body.error).toMatchObject({ status: 400, message: expect.stringMatching(message), requestId: expect.any(String) });
    expect(body.data).toBeUndefined();
  });

  it("never fails on hostile query text", async () => {
    for (const q of ['"', "(", "*", "NEAR(", "{!join from=a to=b}x", "%00", "'--"]) {
      const { response } = await call("search", `?q=${encodeURIComponent(q)}`);
      expect(response.status).toBe(200);
    }
  });

  it("echoes a sane X-Request-ID and replaces a hostile one", async () => {
    const given = await call("search", "?rows=1", { headers: { "X-Request-ID": "abc-123" } });
    expect(given.response.headers.get("X-Request-ID")).toBe("abc-123");
    const bad = await call("search", "?rows=500", { headers: { "X-Request-ID": "<script>" } });
    const id = bad.response.headers.get("X-Request-ID")!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(bad.body.error.requestId).toBe(id);
  });
});

describe("/api/products", () => {
  it("finds a product by item number and by id, 404 for unknown ones", async () => {
    const { body } = await call("search", "?rows=1");
    const doc = body.data.docs[0];
    const byNumber = await call("product", "", { params: { id: doc.item_number_s } });
    expect(byNumber.body.data.id).toBe(doc.id);
    const byId = await call("product", "", { params: { id: doc.id } });
    expect(byId.body.data.item_number_s).toBe(doc.item_number_s);
    const missing = await call("product", "", { params: { id: "../../etc/passwd" } });
    expect(missing.response.status).toBe(404);
    expect(missing.body.error.message).toBe("Product not found");
  });

  it("lists products with paging", async () => {
    const { body } = await call("products", "?start=10&rows=5");
    expect(body.data.docs).toHaveLength(5);
    expect(body.data.numFound).toBe(600);
  });
});

describe("/api/suggestions, /api/facets, /api/config", () => {
  it("suggests item numbers for a prefix and nothing for blank input", async () => {
    const { body } = await call("search", "?rows=1");
    const prefix = String(body.data.docs[0].item_number_s).slice(0, 4);
    const suggestions = await call("suggestions", `?q=${encodeURIComponent(prefix)}&limit=3`);
    expect(suggestions.body.data.suggestions.length).toBeGreaterThan(0);
    expect(suggestions.body.data.suggestions.every((s: string) => s.toLowerCase().startsWith(prefix.toLowerCase()))).toBe(true);
    expect((await call("suggestions", "?q=%20")).body.data.suggestions).toEqual([]);
  });

  it("counts facets for a query", async () => {
    const { body } = await call("facets", "?fields=category,org_code");
    expect(body.data.facets.map((f: { field: string }) => f.field)).toEqual(["category_s", "org_code_s"]);
    const total = body.data.facets[0].values.reduce((n: number, v: { count: number }) => n + v.count, 0);
    expect(total).toBeLessThanOrEqual(600);
  });

  it("serves the public configuration", async () => {
    const { body } = await call("config");
    // Spec §3's five, then the stock level (decision 045).
    expect(body.data.facetFields).toEqual(["org_code_s", "category_s", "manufacturer_s", "attribute_status_s", "attribute_item_type_s", "stock_level_s"]);
    expect(body.data.pageSizes).toEqual([20, 50, 100]);
    expect(body.data).toMatchObject({ exportLimit: 1000, ssoEnabled: false, engine: "embedded" });
  });
});

describe("/api/health and /api/ready", () => {
  it("reports the catalogue", async () => {
    const ready = await call("ready");
    expect(ready.response.status).toBe(200);
    expect(ready.body.data).toMatchObject({ ready: true, items: 600 });
    const health = await call("health");
    expect(health.body.data).toMatchObject({ status: "ok", catalogue: { ok: true } });
  });
});
