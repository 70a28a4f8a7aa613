// The backend engine (BACKEND_URL) against a real backend: this portal's own /api, served over HTTP
// from the embedded catalogue, compared with the embedded engine answering the same requests.
// The server runs Node's own fetch (decision 022), as these tests do.
import type { LoaderFunctionArgs } from "@remix-run/node";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type {
  CursorRequest,
  SearchEngine,
  SearchRequest,
} from "~/search/engine";
import { HL_POST, HL_PRE } from "~/search/engine";
import type { BackendEngine as BackendEngineClass } from "~/search/engines/backend/backend-engine.server";
import { useTemporaryCatalog } from "./setup-catalog";

const { dir } = useTemporaryCatalog(600);

type Loader = (args: LoaderFunctionArgs) => Promise<Response> | Response;
type Fault = "none" | "error" | "hang" | "legacy-marks";

let server: http.Server;
let base: string;
let fault: Fault = "none";
/** For each request the backend left hanging: settles when the client has closed its connection. */
let hung: Promise<unknown>[] = [];
let embedded: SearchEngine;
let BackendEngine: typeof BackendEngineClass;

beforeAll(async () => {
  const loaders: Record<string, Loader> = {
    search: (await import("~/routes/api.search")).loader,
    suggestions: (await import("~/routes/api.suggestions")).loader,
    product: (await import("~/routes/api.products.$id")).loader,
    health: (await import("~/routes/api.health")).loader,
  };
  ({ BackendEngine } = await import(
    "~/search/engines/backend/backend-engine.server"
  ));
  const { services } = await import("~/registry.server");
  const service = services().search;
  expect(service.status().serving).toBe("embedded");
  embedded = {
    name: "embedded",
    search: async (request, context) =>
      (await service.search(request, context)).value,
    getProduct: async (id, context) =>
      (await service.getProduct(id, context)).value,
    suggest: async (prefix, count, context) =>
      (await service.suggest(prefix, count, context)).value,
  } as SearchEngine;

  server = http.createServer(async (req, res) => {
    if (fault === "hang") {
      hung.push(new Promise((resolve) => req.socket.once("close", resolve)));
      return;
    }
    if (fault === "error") {
      res
        .writeHead(500, { "Content-Type": "application/json" })
        .end(
          JSON.stringify({ error: { message: "Catalogue is being rebuilt" } })
        );
      return;
    }
    if (fault === "legacy-marks") {
      // A backend of an earlier release: highlights between U+E000 and U+E001.
      const data = { docs: [{ id: "a" }], numFound: 1, highlighting: { a: { item_description_t: ["Drain \uE000Pump\uE001"] } } };
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ data }));
      return;
    }
    const url = new URL(req.url ?? "/", "http://backend.test");
    const product = /^\/api\/products\/([^/]+)$/.exec(url.pathname);
    const loader =
      loaders[product ? "product" : url.pathname.replace(/^\/api\//, "")];
    if (!loader) return void res.writeHead(404).end();
    const response = await loader({
      request: new Request(url),
      params: product ? { id: decodeURIComponent(product[1]!) } : {},
      context: {},
    });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

afterEach(() => {
  fault = "none";
});

const request = (change: Partial<SearchRequest> = {}): SearchRequest => ({
  q: "",
  within: [],
  filters: [],
  sort: null,
  start: 0,
  rows: 20,
  facetFields: ["org_code_s", "category_s"],
  highlight: false,
  ...change,
});

const ids = (docs: { id: string }[]) => docs.map((d) => d.id);

describe("BackendEngine over HTTP", () => {
  const backend = (timeoutMs = 2_000) => {
    return new BackendEngine({ url: base, timeoutMs });
  };

  it("answers a search as the catalogue behind it does: documents, total, facets, highlights", async () => {
    const asked = request({ q: "pump", highlight: true });
    const [got, expected] = await Promise.all([
      backend().search(asked),
      embedded.search(asked),
    ]);
    expect(got.total).toBeGreaterThan(0);
    expect(got.total).toBe(expected.total);
    expect(ids(got.docs)).toEqual(ids(expected.docs));
    expect(got.docs[0]).toMatchObject({
      item_number_s: expected.docs[0]!.item_number_s,
    });
    expect(got.facets).toEqual(expected.facets);
    expect(Object.keys(got.highlighting ?? {})).toEqual(
      Object.keys(expected.highlighting ?? {})
    );
  });

  it("sends the query tree, search-within terms and exclusions included, and answers as the catalogue does", async () => {
    const asked = request({ q: 'pump OR valve -drain "check valve" OR seal', within: ["-wall", "kit OR assembly"] });
    const [got, expected] = await Promise.all([backend().search(asked), embedded.search(asked)]);
    expect(got.total).toBe(expected.total);
    expect(ids(got.docs)).toEqual(ids(expected.docs));
    const excluded = await backend().search(request({ q: "pump -drain", rows: 100 }));
    expect(excluded.total).toBeGreaterThan(0);
    expect(excluded.docs.some((d) => /drain/i.test(String(d.item_description_t)))).toBe(false);
  });

  it("passes filters, the sort and the page through", async () => {
    const all = await embedded.search(request());
    const org = all.facets[0]!.values[0]!;
    const category = all.facets[1]!.values[0]!;
    const asked = request({
      filters: [
        { field: "org_code_s", value: org.value, type: "include" },
        { field: "category_s", value: category.value, type: "exclude" },
      ],
      sort: { field: "item_number_s", direction: "desc" },
      start: 5,
      rows: 7,
    });
    const [got, expected] = await Promise.all([
      backend().search(asked),
      embedded.search(asked),
    ]);
    expect(got.total).toBe(expected.total);
    expect(got.total).toBeLessThan(org.count);
    expect(ids(got.docs)).toEqual(ids(expected.docs));
    expect(got.docs).toHaveLength(7);
    expect(
      got.docs.every(
        (d) => d.org_code_s === org.value && d.category_s !== category.value
      )
    ).toBe(true);
  });

  it("pages through every match for an export, 100 rows a call, up to the limit", async () => {
    const asked: CursorRequest = {
      q: "",
      within: [],
      filters: [],
      sort: { field: "item_number_s", direction: "asc" },
      batchSize: 100,
      limit: 250,
    };
    const pages: number[] = [];
    const got: string[] = [];
    for await (const docs of backend().cursor(asked)) {
      pages.push(docs.length);
      got.push(...ids(docs));
    }
    expect(pages).toEqual([100, 100, 50]);
    const expected = await embedded.search(
      request({ sort: asked.sort, rows: 250, facetFields: [] })
    );
    expect(got).toEqual(ids(expected.docs));
  });

  it("finds a product by item number, null for one that does not exist, and suggestions", async () => {
    const first = (await embedded.search(request({ rows: 1 }))).docs[0]!;
    const itemNumber = String(first.item_number_s);
    const engine = backend();
    expect((await engine.getProduct(itemNumber))?.id).toBe(first.id);
    expect(await engine.getProduct("NO-SUCH-ITEM")).toBeNull();
    const prefix = itemNumber.slice(0, 3);
    const suggestions = await engine.suggest(prefix, 5);
    expect(suggestions.length).toBeGreaterThan(0);
    expect(suggestions).toEqual(await embedded.suggest(prefix, 5));
    expect(await engine.health()).toEqual({ ok: true });
  });

  it("reads the highlight markers of an earlier release's backend as today's", async () => {
    fault = "legacy-marks";
    const got = await backend().search(request({ q: "pump", highlight: true }));
    expect(got.highlighting).toEqual({ a: { item_description_t: [`Drain ${HL_PRE}Pump${HL_POST}`] } });
  });

  it("gives the backend's own message for an error answer", async () => {
    fault = "error";
    const engine = backend();
    await expect(engine.search(request())).rejects.toMatchObject({
      message: "Catalogue is being rebuilt",
      // The status the backend answered with (spec §8's normalised error).
      status: 500,
    });
    expect(await engine.health()).toEqual({
      ok: false,
      detail: "Catalogue is being rebuilt",
    });
    expect(await engine.suggest("WR", 5)).toEqual([]);
  });

  it("says 'Network error' when the backend does not answer in time or is not there", async () => {
    fault = "hang";
    hung = [];
    // Spec §8: no response is status 0.
    await expect(backend(200).search(request())).rejects.toMatchObject({
      message: "Network error - please check your connection",
      status: 0,
    });
    // The backend never answered: only the client's own timeout can have ended the search, and it
    // let go of the connection (were it left open, this would wait until the test times out).
    expect(hung).toHaveLength(1);
    await hung[0];

    const gone = http.createServer();
    await new Promise<void>((resolve) => gone.listen(0, "127.0.0.1", resolve));
    const port = (gone.address() as AddressInfo).port;
    await new Promise((resolve) => gone.close(resolve));
    const absent = new BackendEngine({
      url: `http://127.0.0.1:${port}`,
      timeoutMs: 2_000,
    });
    await expect(absent.search(request())).rejects.toMatchObject({
      message: "Network error - please check your connection",
      status: 0,
    });
    expect(await absent.health()).toEqual({
      ok: false,
      detail: "Network error - please check your connection",
    });
  });
});
