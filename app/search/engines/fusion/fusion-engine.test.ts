import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { delay, http, HttpResponse, passthrough } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import type { Doc, SearchRequest } from "../../engine";
import { HL_POST, HL_PRE } from "../../engine";
import { DEFAULT_SEARCH_CONFIG } from "../../search-config";
import { FusionError, MESSAGES, transportError } from "./fusion-errors";
import type { FusionSettings } from "../../fusion-settings";
import { CURSOR_PAUSE_MS, FusionEngine } from "./fusion-engine.server";
import bomFixture from "./fixtures/bom-docs.json";
import { rejection } from "../../../../tests/support/fusion-rejection";
import highlighting61 from "./fixtures/highlighting-6.1.json";
import solrError67 from "./fixtures/solr-error-6.7.json";
import suggest64 from "./fixtures/suggest-6.4.json";

const BASE = "http://fusion.test";
const SEARCH_URL = `${BASE}/api/apps/parts/query/parts-search`;

const settings: FusionSettings = {
  url: BASE,
  app: "parts",
  queryProfile: "parts-search",
  collection: "parts",
  bomProfile: "ge-appliances-boms",
  assetBomProfile: "asset-boms",
  timeoutMs: 5_000,
};

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function engine(overrides: Partial<FusionSettings> = {}, pauseMs = 0): FusionEngine {
  return new FusionEngine({ ...settings, ...overrides }, DEFAULT_SEARCH_CONFIG, pauseMs);
}

function searchRequest(overrides: Partial<SearchRequest> = {}): SearchRequest {
  return { q: "pump", within: [], filters: [], sort: null, start: 0, rows: 20, facetFields: [], ...overrides };
}

const solrBody = (docs: object[], extra: object = {}) => ({ responseHeader: { status: 0, QTime: 1 }, response: { numFound: docs.length, start: 0, docs }, ...extra });

/** Every request a handler saw, for assertions on what was sent. */
function recorder() {
  const requests: Request[] = [];
  return { requests, record: (request: Request) => requests.push(request.clone()) };
}

/** A local port with nothing listening on it (port 1 is a fetch "bad port", refused before connecting). */
async function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function collect(iterable: AsyncIterable<Doc[]>): Promise<Doc[][]> {
  const batches: Doc[][] = [];
  for await (const batch of iterable) batches.push(batch);
  return batches;
}

describe("FusionEngine.search", () => {
  it("GETs the app-scoped query profile with the built parameters and parses the answer", async () => {
    const seen = recorder();
    server.use(
      http.get(SEARCH_URL, ({ request }) => {
        seen.record(request);
        return HttpResponse.json(highlighting61, { headers: { "x-fusion-query-id": "f5KGn9KPvv" } });
      }),
    );
    const result = await engine().search(
      searchRequest({ q: "apple", filters: [{ field: "org_code_s", value: "M01", type: "include" }], facetFields: ["org_code_s"] }),
    );
    expect(result.docs.map((d) => d.id)).toEqual(["MA147LL/A"]);
    expect(result.highlighting["MA147LL/A"]?.manu).toEqual([`${HL_PRE}Apple${HL_POST} Computer Inc.`]);
    expect(result.queryId).toBe("f5KGn9KPvv");
    const url = new URL(seen.requests[0]?.url ?? "");
    expect(url.pathname).toBe("/api/apps/parts/query/parts-search");
    expect(url.searchParams.get("q")).toBe("+apple");
    expect(url.searchParams.get("collection")).toBe("parts");
    expect(url.searchParams.get("wt")).toBe("json");
    expect(url.searchParams.getAll("fq")).toEqual(['{!tag=org_code_tag}org_code_s:("M01")']);
  });

  it("delivers filter values with URL-significant characters intact", async () => {
    const seen = recorder();
    server.use(
      http.get(SEARCH_URL, ({ request }) => {
        seen.record(request);
        return HttpResponse.json(solrBody([]));
      }),
    );
    const value = '50% + #2 &x=1 "q" \\ {!join from=a to=b}';
    await engine().search(searchRequest({ filters: [{ field: "manufacturer_s", value, type: "include" }] }));
    const fq = new URL(seen.requests[0]?.url ?? "").searchParams.getAll("fq");
    expect(fq).toEqual(['{!tag=manufacturer_tag}manufacturer_s:("50% + #2 &x=1 \\"q\\" \\\\ {!join from=a to=b}")']);
  });

  it("sends x-api-key only when an API key is configured", async () => {
    const seen = recorder();
    server.use(
      http.get(SEARCH_URL, ({ request }) => {
        seen.record(request);
        return HttpResponse.json(solrBody([]));
      }),
    );
    await engine({ apiKey: "secret-key" }).search(searchRequest());
    await engine({ apiKey: undefined }).search(searchRequest());
    expect(seen.requests[0]?.headers.get("x-api-key")).toBe("secret-key");
    expect(seen.requests[1]?.headers.has("x-api-key")).toBe(false);
  });

  it("sends an X-Request-ID on every call: the caller's, or a fresh one", async () => {
    const seen = recorder();
    server.use(
      http.get(SEARCH_URL, ({ request }) => {
        seen.record(request);
        return HttpResponse.json(solrBody([]));
      }),
    );
    const fusion = engine();
    await fusion.search(searchRequest(), { requestId: "req-123" });
    await fusion.search(searchRequest());
    await fusion.search(searchRequest());
    const ids = seen.requests.map((r) => r.headers.get("x-request-id"));
    expect(ids[0]).toBe("req-123");
    expect(ids[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[2]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[1]).not.toBe(ids[2]);
  });

  it("reads the counts of every facet it asked for, including a facet named without its suffix (spec §7)", async () => {
    server.use(
      http.get(SEARCH_URL, ({ request }) => {
        // Answer a bucket for each facet key of the json.facet the client sent, as Solr would.
        const spec = JSON.parse(new URL(request.url).searchParams.get("json.facet") ?? "{}") as Record<string, unknown>;
        const facets = Object.fromEntries(Object.keys(spec).map((key) => [key, { buckets: [{ val: `${key}-value`, count: 3 }] }]));
        return HttpResponse.json(solrBody([], { facets: { count: 3, ...facets } }));
      }),
    );
    const result = await engine().search(searchRequest({ facetFields: ["org_code_s", "status"] }));
    expect(result.facets).toHaveLength(2);
    expect(result.facets[0]).toEqual({ field: "org_code_s", values: [{ value: "org_code_s-value", count: 3 }] });
    expect(result.facets[1]?.values).toEqual([{ value: "attribute_status_s-value", count: 3 }]);
  });

  it("has no queryId when Fusion sends no x-fusion-query-id", async () => {
    server.use(http.get(SEARCH_URL, () => HttpResponse.json(solrBody([{ id: "a" }]))));
    const result = await engine().search(searchRequest());
    expect(result.queryId).toBeUndefined();
    expect(result.total).toBe(1);
  });
});

describe("FusionEngine.findByNumber", () => {
  it("asks one exact query on the item and manufacturer part numbers, without facets, highlights or spell-check", async () => {
    let sent: URLSearchParams | undefined;
    server.use(
      http.get(SEARCH_URL, ({ request }) => {
        sent = new URL(request.url).searchParams;
        return HttpResponse.json(solrBody([{ id: "a", item_number_s: "WR55X10942" }]));
      }),
    );
    const docs = await engine().findByNumber("wr55x10942", 2);
    expect(docs.map((d) => d.item_number_s)).toEqual(["WR55X10942"]);
    expect(sent?.get("q")).toBe('item_number_s:("wr55x10942" OR "WR55X10942") OR attribute_manufacturer_part_number_s:("wr55x10942" OR "WR55X10942") OR attribute_cmpn_s:("wr55x10942" OR "WR55X10942")');
    expect(sent?.get("rows")).toBe("2");
    expect(sent?.has("json.facet") || sent?.has("hl") || sent?.has("spellcheck")).toBe(false);
  });
});

describe("FusionEngine.search errors (core-search §8)", () => {
  const statuses: Array<[number, string, string]> = [
    [401, "unauthorized", "Authentication failed - API key may be invalid or expired"],
    [403, "forbidden", "Access forbidden - API key may not have required permissions"],
    [404, "not-found", "Query profile or collection not found - check configuration"],
  ];

  it.each(statuses)("maps HTTP %i to its message", async (status, kind, message) => {
    server.use(http.get(SEARCH_URL, () => HttpResponse.json({ error: { msg: "whatever the gateway says", code: status } }, { status })));
    const error = await rejection(engine().search(searchRequest()));
    expect(error.message).toBe(message);
    expect(error.reason).toBe(kind);
    expect(error.httpStatus).toBe(status);
    expect(error.isOutage).toBe(false);
  });

  it("reports a 500 with a Solr error body as 'HTTP 500: <msg>'", async () => {
    server.use(
      http.get(SEARCH_URL, () =>
        HttpResponse.json(
          { responseHeader: { status: 500, QTime: 1 }, error: { metadata: ["error-class", "org.apache.solr.common.SolrException"], msg: "SolrCore is loading", code: 500 } },
          { status: 500, statusText: "Server Error" },
        ),
      ),
    );
    const error = await rejection(engine().search(searchRequest()));
    expect(error.message).toBe("HTTP 500: SolrCore is loading");
    expect(error.isOutage).toBe(true);
  });

  it("reports a 400 Solr syntax error (§6.7) with its message, not as an outage", async () => {
    server.use(http.get(SEARCH_URL, () => HttpResponse.json(solrError67, { status: 400 })));
    const error = await rejection(engine().search(searchRequest()));
    expect(error.message).toBe(`HTTP 400: ${solrError67.error.msg}`);
    expect(error.isOutage).toBe(false);
  });

  /** A pipeline parser that refuses the required-clause operator `+` (or an unescaped `"` or `/`). */
  const luceneParser = (seen: string[]) =>
    http.get(SEARCH_URL, ({ request }) => {
      const q = new URL(request.url).searchParams.get("q") ?? "";
      seen.push(q);
      if (/(^|[^\\])["/+]/.test(q)) return HttpResponse.json(solrError67, { status: 400 });
      return HttpResponse.json(solrBody([{ id: "valve-1" }]));
    });

  it("asks once more with the text as plain words when the parser refuses it (1/2\" valve)", async () => {
    const seen: string[] = [];
    server.use(luceneParser(seen));
    const result = await engine().search(searchRequest({ q: '1/2" valve', within: ["brass"] }));
    expect(result.docs.map((d) => d.id)).toEqual(["valve-1"]);
    expect(seen).toEqual(['+1\\/2\\" +valve +brass', '1\\/2\\" AND valve AND brass']);
  });

  it("does not ask again for a 400 that is not about the text, or when plain words change nothing", async () => {
    const seen: string[] = [];
    server.use(
      http.get(SEARCH_URL, ({ request }) => {
        seen.push(new URL(request.url).searchParams.get("q") ?? "");
        return HttpResponse.json({ error: { msg: "undefined field nonsense_s", code: 400 } }, { status: 400 });
      }),
    );
    await expect(engine().search(searchRequest({ q: '1/2"' }))).rejects.toThrow("HTTP 400: undefined field nonsense_s");
    expect(seen).toHaveLength(1);
    server.use(http.get(SEARCH_URL, () => HttpResponse.json(solrError67, { status: 400 })));
    await expect(engine().search(searchRequest({ q: "pump" }))).rejects.toThrow(solrError67.error.msg);
  });

  it("exports text the parser refuses as plain words, from the first batch on", async () => {
    const seen: string[] = [];
    server.use(
      http.get(SEARCH_URL, ({ request }) => {
        const params = new URL(request.url).searchParams;
        const q = params.get("q") ?? "";
        seen.push(q);
        if (/(^|[^\\])["/+]/.test(q)) return HttpResponse.json(solrError67, { status: 400 });
        const mark = params.get("cursorMark");
        return HttpResponse.json({ response: { numFound: 3, start: 0, docs: mark === "*" ? [{ id: "a" }, { id: "b" }] : [{ id: "c" }] }, nextCursorMark: mark === "*" ? "AoE1" : "AoE1" });
      }),
    );
    const batches = await collect(engine().cursor({ q: '3/4" hose', within: [], filters: [], sort: null, batchSize: 2 }));
    expect(batches.flat().map((d) => d.id)).toEqual(["a", "b", "c"]);
    expect(seen).toEqual(['+3\\/4\\" +hose', '3\\/4\\" AND hose', '3\\/4\\" AND hose']);
  });

  it("reports a 503 with a non-JSON body as 'HTTP 503: <statusText>'", async () => {
    server.use(
      http.get(SEARCH_URL, () => new HttpResponse("<html><body>upstream down</body></html>", { status: 503, statusText: "Service Unavailable", headers: { "Content-Type": "text/html" } })),
    );
    const error = await rejection(engine().search(searchRequest()));
    expect(error.message).toBe("HTTP 503: Service Unavailable");
    expect(error.isOutage).toBe(true);
  });

  it("reports a refused connection as 'Connection refused - Fusion service may be down'", async () => {
    const port = await closedPort();
    server.use(http.get(`http://127.0.0.1:${port}/*`, () => passthrough()));
    const error = await rejection(engine({ url: `http://127.0.0.1:${port}` }).search(searchRequest()));
    expect(error.message).toBe("Connection refused - Fusion service may be down");
    expect(error.reason).toBe("refused");
  });

  it("reports an unknown host as 'Fusion endpoint not reachable - check endpoint URL'", async () => {
    server.use(http.get("http://fusion-host.invalid/*", () => passthrough()));
    const error = await rejection(engine({ url: "http://fusion-host.invalid" }).search(searchRequest()));
    expect(error.message).toBe("Fusion endpoint not reachable - check endpoint URL");
    expect(error.reason).toBe("unreachable");
  });

  it("gives up after the timeout with 'Request timeout - Fusion service may be slow or unreachable'", async () => {
    server.use(
      http.get(SEARCH_URL, async () => {
        await delay("infinite");
        return HttpResponse.json(solrBody([]));
      }),
    );
    // The handler never answers, so only the engine's own timeout can end the search.
    const error = await rejection(engine({ timeoutMs: 200 }).search(searchRequest()));
    expect(error.message).toBe("Request timeout - Fusion service may be slow or unreachable");
    expect(error.reason).toBe("timeout");
  });

  // msw does not tie a mocked body stream to the request's signal, so this one uses a real socket.
  it("times out a response whose body never finishes", async () => {
    const stalled = createHttpServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.write('{"response":');
    });
    await new Promise<void>((resolve) => stalled.listen(0, "127.0.0.1", resolve));
    const address = stalled.address();
    const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    server.use(http.get(`${url}/*`, () => passthrough()));
    try {
      // Only the engine's timeout can end this search: the body never finishes.
      const error = await rejection(engine({ url, timeoutMs: 200 }).search(searchRequest()));
      expect(error.message).toBe(MESSAGES.timeout);
    } finally {
      stalled.closeAllConnections();
      await new Promise((resolve) => stalled.close(resolve));
    }
  });

  it("reports a truncated or malformed 200 body as 'Search request failed'", async () => {
    server.use(http.get(SEARCH_URL, () => new HttpResponse('{"response":{"numFound":3,"docs":[{"id":"a"', { headers: { "Content-Type": "application/json" } })));
    const truncated = await rejection(engine().search(searchRequest()));
    expect(truncated.message).toBe("Search request failed");
    expect(truncated.reason).toBe("malformed");

    server.use(http.get(SEARCH_URL, () => HttpResponse.json({ response: { numFound: "3", docs: [] } })));
    expect((await rejection(engine().search(searchRequest()))).message).toBe("Search request failed");
  });
});

describe("transportError", () => {
  const withCause = (code: string) => Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error(code), { code }) });

  it("maps error codes anywhere in the cause chain to the spec's texts", () => {
    expect(transportError(withCause("ECONNREFUSED"), false).message).toBe("Connection refused - Fusion service may be down");
    expect(transportError(withCause("ENOTFOUND"), false).message).toBe("Fusion endpoint not reachable - check endpoint URL");
    expect(transportError(withCause("EAI_AGAIN"), false).reason).toBe("unreachable");
    expect(transportError(withCause("UND_ERR_CONNECT_TIMEOUT"), false).message).toBe("Request timeout - Fusion service may be slow or unreachable");
    const deep = new TypeError("fetch failed", { cause: new Error("socket", { cause: Object.assign(new Error("x"), { code: "ECONNREFUSED" }) }) });
    expect(transportError(deep, false).reason).toBe("refused");
  });

  it("reports a fired timeout as a timeout whatever the error, and anything unknown as 'Search request failed'", () => {
    expect(transportError(withCause("ECONNREFUSED"), true).message).toBe(MESSAGES.timeout);
    expect(transportError(new DOMException("The operation was aborted", "AbortError"), false).message).toBe("Search request failed");
    expect(transportError("weird", false).reason).toBe("failed");
  });
});

describe("FusionEngine.cursor", () => {
  type Page = { docs: string[]; next: string };
  const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `doc-${from + i}`);

  /** A Solr cursor: each mark answers its page and the next mark; rows is honoured. */
  function cursorServer(pages: Record<string, Page>) {
    const seen = recorder();
    server.use(
      http.get(SEARCH_URL, ({ request }) => {
        seen.record(request);
        const params = new URL(request.url).searchParams;
        const page = pages[params.get("cursorMark") ?? ""];
        if (!page) return HttpResponse.json({ error: { msg: "Unable to parse 'cursorMark' after totem", code: 400 } }, { status: 400 });
        const rows = Number(params.get("rows"));
        return HttpResponse.json({ response: { numFound: 5, start: 0, docs: page.docs.slice(0, rows).map((id) => ({ id })) }, nextCursorMark: page.next });
      }),
    );
    return { seen, params: () => seen.requests.map((r) => new URL(r.url).searchParams) };
  }

  const threeBatches: Record<string, Page> = {
    "*": { docs: ids(1, 2), next: "AoE1" },
    AoE1: { docs: ids(3, 4), next: "AoE2" },
    AoE2: { docs: ids(5, 5), next: "AoEpdmlld3Nvbmlj" },
    AoEpdmlld3Nvbmlj: { docs: [], next: "AoEpdmlld3Nvbmlj" },
  };

  it("follows nextCursorMark from * until the mark repeats, delivering every doc once", async () => {
    const fake = cursorServer(threeBatches);
    const batches = await collect(
      engine().cursor({ q: "pump", within: [], filters: [{ field: "org_code_s", value: "M01", type: "include" }], sort: { field: "item_number_s", direction: "asc" }, batchSize: 2 }),
    );
    expect(batches.map((b) => b.map((d) => d.id))).toEqual([ids(1, 2), ids(3, 4), ids(5, 5)]);
    const sent = fake.params();
    expect(sent.map((p) => p.get("cursorMark"))).toEqual(["*", "AoE1", "AoE2", "AoEpdmlld3Nvbmlj"]);
    for (const p of sent) {
      expect(p.get("sort")).toBe("item_number_s asc, id asc");
      expect(p.get("start")).toBe("0");
      expect(p.get("rows")).toBe("2");
      expect(p.get("q")).toBe("+pump");
      expect(p.getAll("fq")).toEqual(['{!tag=org_code_tag}org_code_s:("M01")']);
      expect(p.has("json.facet")).toBe(false);
      expect(p.has("hl")).toBe(false);
    }
  });

  it("sorts by id alone when no sort is given (spec §7: default sort id asc)", async () => {
    const fake = cursorServer({ "*": { docs: ids(1, 1), next: "*" } });
    await collect(engine().cursor({ q: "", within: [], filters: [], sort: null, batchSize: 10 }));
    expect(fake.params()[0]?.get("sort")).toBe("id asc");
    expect(fake.params()).toHaveLength(1);
  });

  it("stops at the limit, asking only for the rows still wanted", async () => {
    const fake = cursorServer(threeBatches);
    const batches = await collect(engine().cursor({ q: "pump", within: [], filters: [], sort: null, batchSize: 2, limit: 3 }));
    expect(batches.flat().map((d) => d.id)).toEqual(ids(1, 3));
    expect(fake.params().map((p) => p.get("rows"))).toEqual(["2", "1"]);
  });

  // Fusion pipelines may override `rows` (fusion-api.md §1.4); the interface says "Stop after this many documents".
  it("delivers no more than the limit even when the pipeline answers with more rows than asked", async () => {
    server.use(
      http.get(SEARCH_URL, ({ request }) => {
        const mark = new URL(request.url).searchParams.get("cursorMark");
        const page = mark === "*" ? ids(1, 4) : [];
        return HttpResponse.json({ response: { numFound: 8, start: 0, docs: page.map((id) => ({ id })) }, nextCursorMark: "AoE1" });
      }),
    );
    const batches = await collect(engine().cursor({ q: "", within: [], filters: [], sort: null, batchSize: 2, limit: 3 }));
    expect(batches.flat()).toHaveLength(3);
  });

  it("names the failing batch: 'Failed to fetch batch 2: HTTP 500: …'", async () => {
    let calls = 0;
    server.use(
      http.get(SEARCH_URL, ({ request }) => {
        calls++;
        const mark = new URL(request.url).searchParams.get("cursorMark");
        if (mark === "*") return HttpResponse.json({ response: { numFound: 4, start: 0, docs: [{ id: "a" }, { id: "b" }] }, nextCursorMark: "AoE1" });
        return HttpResponse.json({ error: { msg: "Cursor functionality requires start=0", code: 500 } }, { status: 500, statusText: "Internal Server Error" });
      }),
    );
    const delivered: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const batch of engine().cursor({ q: "", within: [], filters: [], sort: null, batchSize: 2 })) delivered.push(...batch.map((d) => d.id));
      })(),
    );
    expect(delivered).toEqual(["a", "b"]);
    expect(calls).toBe(2);
    expect(error.message).toMatch(/^Failed to fetch batch 2: HTTP 500: \S/);
  });

  it("fails with 'Cursor search failed: …' when a full batch comes without a mark, rather than end the file early", async () => {
    server.use(http.get(SEARCH_URL, () => HttpResponse.json({ response: { numFound: 9, start: 0, docs: ids(1, 2).map((id) => ({ id })) } })));
    const delivered: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const batch of engine().cursor({ q: "", within: [], filters: [], sort: null, batchSize: 2 })) delivered.push(...batch.map((d) => d.id));
      })(),
    );
    expect(delivered).toEqual([]);
    expect(error.message).toBe("Cursor search failed: the answer to batch 1 has no nextCursorMark");
    // A short batch without a mark is the whole set: nothing is missing.
    server.use(http.get(SEARCH_URL, () => HttpResponse.json({ response: { numFound: 1, start: 0, docs: [{ id: "only" }] } })));
    const whole = await collect(engine().cursor({ q: "", within: [], filters: [], sort: null, batchSize: 2 }));
    expect(whole.flat().map((d) => d.id)).toEqual(["only"]);
  });

  it("pauses 100 ms between batches by default (a fake clock)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const fake = cursorServer(threeBatches);
    const fusion = new FusionEngine(settings, DEFAULT_SEARCH_CONFIG);
    const done = collect(fusion.cursor({ q: "", within: [], filters: [], sort: null, batchSize: 2 }));
    /** Lets the engine run until it waits on the clock (or has sent `count` requests). */
    const settle = async (count: number) => {
      for (let turn = 0; turn < 200 && fake.seen.requests.length < count; turn++) await new Promise((resolve) => setImmediate(resolve));
      return fake.seen.requests.length;
    };
    expect(await settle(1)).toBe(1);
    for (const batch of [2, 3, 4]) {
      await vi.advanceTimersByTimeAsync(CURSOR_PAUSE_MS - 1);
      expect(await settle(batch)).toBe(batch - 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(await settle(batch)).toBe(batch);
    }
    expect((await done).flat()).toHaveLength(5);
  });
});

describe("FusionEngine.getProduct", () => {
  it("looks the item up by item_number_s or id, one row", async () => {
    const seen = recorder();
    server.use(
      http.get(SEARCH_URL, ({ request }) => {
        seen.record(request);
        return HttpResponse.json(solrBody([{ id: "p-1", item_number_s: 'GE-"7"', price_d: 2.5 }]));
      }),
    );
    const doc = await engine().getProduct('GE-"7"');
    expect(doc).toEqual({ id: "p-1", item_number_s: 'GE-"7"', price_d: 2.5 });
    const params = new URL(seen.requests[0]?.url ?? "").searchParams;
    expect(params.get("q")).toBe('item_number_s:"GE-\\"7\\"" OR id:"GE-\\"7\\""');
    expect(params.get("rows")).toBe("1");
    expect(params.get("start")).toBe("0");
    expect(params.get("collection")).toBe("parts");
  });

  it("answers null when nothing matches", async () => {
    server.use(http.get(SEARCH_URL, () => HttpResponse.json(solrBody([]))));
    expect(await engine().getProduct("missing")).toBeNull();
  });
});

describe("FusionEngine.bom", () => {
  it("asks the asset-BOM profile with fq=item_number_s:\"…\" for asset BOMs and parses suffixed docs", async () => {
    const seen = recorder();
    server.use(
      http.get(`${BASE}/api/apps/parts/query/asset-boms`, ({ request }) => {
        seen.record(request);
        return HttpResponse.json(bomFixture);
      }),
    );
    const result = await engine({ apiKey: "k" }).bom({ itemNumber: "GE-WR55X10942", type: "asset", start: 20, rows: 10, sort: { field: "asset_number", direction: "desc" } });
    expect(result.total).toBe(3);
    expect(result.docs[0]).toMatchObject({ id: "bom-1", type: "asset", asset_number: "A-1001", quantity: 2 });
    const request = seen.requests[0];
    const params = new URL(request?.url ?? "").searchParams;
    expect(params.get("fq")).toBe('item_number_s:"GE-WR55X10942"');
    expect(params.get("start")).toBe("20");
    expect(params.get("rows")).toBe("10");
    // The asset-BOM profile sorts on index fields, which carry the string suffix.
    expect(params.get("sort")).toBe("asset_number_s desc");
    expect(params.has("itemNumber")).toBe(false);
    expect(request?.headers.get("x-api-key")).toBe("k");
  });

  it("sorts asset BOMs on sortable index fields: the description's string copy, the quantity as a number", async () => {
    const seen = recorder();
    server.use(
      http.get(`${BASE}/api/apps/parts/query/asset-boms`, ({ request }) => {
        seen.record(request);
        return HttpResponse.json(bomFixture);
      }),
    );
    const sorts: string[] = [];
    for (const field of ["asset_description", "quantity", "org_code"] as const) {
      await engine().bom({ itemNumber: "I-1", type: "asset", start: 0, rows: 5, sort: { field, direction: "asc" } });
      sorts.push(new URL(seen.requests.at(-1)?.url ?? "").searchParams.get("sort") ?? "");
    }
    expect(sorts).toEqual(["asset_description_s asc", "quantity_i asc", "org_code_s asc"]);
  });

  it("asks the BOM profile with itemNumber, start, rows, type and sort for other BOMs", async () => {
    const seen = recorder();
    server.use(
      http.get(`${BASE}/api/apps/parts/query/ge-appliances-boms`, ({ request }) => {
        seen.record(request);
        return HttpResponse.json({ response: { numFound: 41, start: 0, docs: [{ id: "x", type_s: "pm", item_number_s: "I-1", quantity_i: 4 }] } });
      }),
    );
    const result = await engine().bom({ itemNumber: "I-1", type: "pm", start: 0, rows: 20, sort: { field: "quantity", direction: "asc" } });
    expect(result).toEqual({
      total: 41,
      docs: [{ id: "x", type: "pm", org_code: null, item_number: "I-1", asset_number: null, asset_serial_number: null, asset_group: null, asset_description: null, quantity: 4 }],
    });
    const params = new URL(seen.requests[0]?.url ?? "").searchParams;
    expect(params.get("itemNumber")).toBe("I-1");
    expect(params.get("type")).toBe("pm");
    expect(params.get("start")).toBe("0");
    expect(params.get("rows")).toBe("20");
    expect(params.get("sort")).toBe("quantity asc");
    expect(params.has("fq")).toBe(false);

    await engine().bom({ itemNumber: "I-1", start: 0, rows: 20 });
    const untyped = new URL(seen.requests[1]?.url ?? "").searchParams;
    expect(untyped.has("type")).toBe(false);
    expect(untyped.has("sort")).toBe(false);
  });

  it("asks for a BOM's lines by the number heading them: a filter on asset_number_s, on either profile", async () => {
    const seen = recorder();
    const answer = ({ request }: { request: Request }) => {
      seen.record(request);
      return HttpResponse.json({ response: { numFound: 0, start: 0, docs: [] } });
    };
    server.use(http.get(`${BASE}/api/apps/parts/query/asset-boms`, answer), http.get(`${BASE}/api/apps/parts/query/ge-appliances-boms`, answer));
    await engine().bom({ assetNumber: 'AST "1"', type: "asset", start: 0, rows: 20 });
    await engine().bom({ assetNumber: "AST-1", type: "pm", start: 0, rows: 20 });
    const [asset, pm] = seen.requests.map((r) => new URL(r.url));
    expect(asset?.pathname).toMatch(/\/asset-boms$/);
    expect(asset?.searchParams.getAll("fq")).toEqual(['asset_number_s:"AST \\"1\\""']);
    expect(pm?.pathname).toMatch(/\/ge-appliances-boms$/);
    expect(pm?.searchParams.getAll("fq")).toEqual(['asset_number_s:"AST-1"']);
    expect(pm?.searchParams.get("type")).toBe("pm");
    expect(pm?.searchParams.has("itemNumber")).toBe(false);
  });

  it("fails with the spec's text when the BOM profile is missing", async () => {
    server.use(http.get(`${BASE}/api/apps/parts/query/ge-appliances-boms`, () => new HttpResponse(null, { status: 404 })));
    expect((await rejection(engine().bom({ itemNumber: "I-1", start: 0, rows: 20 }))).message).toBe(MESSAGES.notFound);
  });
});

describe("FusionEngine.suggest", () => {
  const SUGGEST_URL = `${SEARCH_URL}/suggest`;

  it("asks the profile's suggest handler and reads the terms", async () => {
    const seen = recorder();
    server.use(
      http.get(SUGGEST_URL, ({ request }) => {
        seen.record(request);
        return HttpResponse.json(suggest64);
      }),
    );
    expect(await engine().suggest("hi", 5)).toEqual(["hive"]);
    const params = new URL(seen.requests[0]?.url ?? "").searchParams;
    expect(Object.fromEntries(params)).toEqual({ suggest: "true", "suggest.dictionary": "default", "suggest.q": "hi", "suggest.count": "5", collection: "parts" });
  });

  it("gives at most `count` suggestions", async () => {
    const terms = ["a1", "a2", "a3", "a4"].map((term) => ({ term, weight: 0, payload: "" }));
    server.use(http.get(SUGGEST_URL, () => HttpResponse.json({ suggest: { default: { a: { numFound: 4, suggestions: terms } } } })));
    expect(await engine().suggest("a", 2)).toEqual(["a1", "a2"]);
  });

  it("throws a failed call's error for the circuit to count, and sends nothing for a blank prefix", async () => {
    let calls = 0;
    server.use(
      http.get(SUGGEST_URL, () => {
        calls++;
        return HttpResponse.json({ error: { msg: "boom", code: 500 } }, { status: 500 });
      }),
    );
    await expect(engine().suggest("pu", 5)).rejects.toMatchObject({ httpStatus: 500 });
    expect(calls).toBe(1);
    expect(await engine().suggest("   ", 5)).toEqual([]);
    expect(calls).toBe(1);

    server.use(http.get(SUGGEST_URL, () => HttpResponse.error()));
    await expect(engine().suggest("pu", 5)).rejects.toBeInstanceOf(FusionError);
  });
});

describe("FusionEngine.health", () => {
  it("checks the endpoint root, then a one-row query, and reports the error text when one fails", async () => {
    server.use(http.get("http://fusion.test/", () => HttpResponse.json({ status: "ok" })));
    server.use(http.get(SEARCH_URL, () => HttpResponse.json(solrBody([{ id: "a" }]))));
    expect(await engine().health()).toEqual({ ok: true });
    server.use(http.get(SEARCH_URL, () => new HttpResponse(null, { status: 401 })));
    expect(await engine().health()).toEqual({ ok: false, detail: MESSAGES.unauthorized });
    server.use(http.get("http://fusion.test/", () => HttpResponse.error()));
    expect(await engine().health()).toEqual({ ok: false, detail: MESSAGES.unreachable });
  });
});

describe("a page's deadline", () => {
  const request: SearchRequest = { q: "pump", within: [], filters: [], sort: null, start: 0, rows: 1, facetFields: [], highlight: false };

  it("gives a call what is left of it, and a call past it fails as a timeout without asking Fusion", async () => {
    let calls = 0;
    server.use(
      http.get(SEARCH_URL, async () => {
        calls++;
        await delay("infinite");
        return HttpResponse.json(solrBody([]));
      }),
    );
    // The settings allow 5 s; the page's deadline is 150 ms away, and the call ends at it.
    const slow = await rejection(engine({ timeoutMs: 5_000 }).search(request, { deadline: Date.now() + 150 }));
    expect(slow.message).toBe(MESSAGES.timeout);
    expect(calls).toBe(1);
    const late = await rejection(engine({ timeoutMs: 5_000 }).search(request, { deadline: Date.now() - 1 }));
    expect(late.message).toBe(MESSAGES.timeout);
    expect(calls).toBe(1);
  });
});
