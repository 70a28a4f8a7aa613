import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { CircuitBreaker } from "./circuit-breaker";
import type { BomRequest, CursorRequest, Doc, EngineName, RequestContext, SearchEngine, SearchRequest, SearchResponse } from "./engine";
import { FusionError, httpError, MESSAGES } from "./engines/fusion/fusion-errors";
import { DEFAULT_SEARCH_CONFIG } from "./search-config";
import { PlatformUnavailable, PLATFORM_HEALTH_CACHE_MS, SearchService } from "./service";

const request: SearchRequest = { q: "pump", within: [], filters: [], sort: null, start: 0, rows: 20, facetFields: [] };

function answer(id: string): SearchResponse {
  return { docs: [{ id }], total: 1, facets: [], highlighting: {}, suggestions: [] };
}

type SearchImpl = (request: SearchRequest, context?: RequestContext) => Promise<SearchResponse>;

/** A plain object behind the engine interface; `search` is the call these tests drive. */
function fakeEngine(name: EngineName, search: SearchImpl) {
  const calls = { search: 0, cursor: 0 };
  const engine: SearchEngine = {
    name,
    search: (req, context) => {
      calls.search++;
      return search(req, context);
    },
    async *cursor(_request: CursorRequest): AsyncIterable<Doc[]> {
      calls.cursor++;
      yield [{ id: `${name}-row` }];
    },
    getProduct: async (id: string) => ({ id: `${name}:${id}` }),
    bom: async (_request: BomRequest) => ({ docs: [], total: name === "fusion" ? 1 : 2 }),
    suggest: async () => [name],
    health: async () => ({ ok: true }),
  };
  return { engine, calls };
}

const ok = (id: string): SearchImpl => async () => answer(id);
const failWith = (error: unknown): SearchImpl => async () => {
  throw error;
};

function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

function service(primary: SearchEngine | null, fallback: SearchEngine, breaker?: CircuitBreaker) {
  return new SearchService(DEFAULT_SEARCH_CONFIG, { primary, fallback }, breaker);
}

const timeout = () => new FusionError("timeout", MESSAGES.timeout);

beforeEach(() => {
  vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("SearchService", () => {
  it("answers from the primary when it succeeds, not degraded, without calling the fallback", async () => {
    const primary = fakeEngine("fusion", ok("from-fusion"));
    const fallback = fakeEngine("embedded", ok("from-embedded"));
    const result = await service(primary.engine, fallback.engine).search(request);
    expect(result.value.docs[0]?.id).toBe("from-fusion");
    expect(result.engine).toBe("fusion");
    expect(result.degraded).toBe(false);
    expect(fallback.calls.search).toBe(0);
  });

  it("says how long the engine took, fallback included (engineMs, a fake clock)", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const taking = (ms: number, impl: SearchImpl): SearchImpl => async (req, context) => {
      vi.advanceTimersByTime(ms);
      return impl(req, context);
    };
    const primary = fakeEngine("fusion", taking(40, ok("from-fusion")));
    expect((await service(primary.engine, fakeEngine("embedded", ok("x")).engine).search(request)).engineMs).toBe(40);
    const failing = fakeEngine("fusion", taking(30, failWith(timeout())));
    const fallback = fakeEngine("embedded", taking(15, ok("from-embedded")));
    expect((await service(failing.engine, fallback.engine).search(request)).engineMs).toBe(45);
  });

  const outages: Array<[string, FusionError]> = [
    ["a timeout", timeout()],
    ["a refused connection", new FusionError("refused", MESSAGES.refused)],
    ["an unreachable host", new FusionError("unreachable", MESSAGES.unreachable)],
    ["HTTP 503", httpError(503, "Service Unavailable")],
    ["HTTP 500", httpError(500, "SolrCore is loading")],
    ["a malformed answer", new FusionError("malformed", MESSAGES.failed)],
  ];

  it.each(outages)("answers from the fallback, marked degraded, on %s", async (_label, error) => {
    const fallback = fakeEngine("embedded", ok("from-embedded"));
    const result = await service(fakeEngine("fusion", failWith(error)).engine, fallback.engine).search(request);
    expect(result.value.docs[0]?.id).toBe("from-embedded");
    expect(result.engine).toBe("embedded");
    expect(result.degraded).toBe(true);
  });

  const configurationErrors: Array<[number, string]> = [
    [401, MESSAGES.unauthorized],
    [403, MESSAGES.forbidden],
    [404, MESSAGES.notFound],
  ];

  it.each(configurationErrors)("answers HTTP %i from the fallback, marked degraded, and keeps its text for the status", async (status, text) => {
    const fallback = fakeEngine("embedded", ok("from-embedded"));
    const svc = service(fakeEngine("fusion", failWith(httpError(status, "Refused"))).engine, fallback.engine);
    const result = await svc.search(request);
    expect(result).toMatchObject({ engine: "embedded", degraded: true });
    expect(fallback.calls.search).toBe(1);
    expect(svc.status().primary).toMatchObject({ configurationError: text, breaker: { consecutiveFailures: 1 } });
  });

  it("throws a request the platform refused (HTTP 400) as it is, without asking the fallback", async () => {
    const error = httpError(400, "Bad Request");
    const fallback = fakeEngine("embedded", ok("from-embedded"));
    await expect(service(fakeEngine("fusion", failWith(error)).engine, fallback.engine).search(request)).rejects.toBe(error);
    expect(fallback.calls.search).toBe(0);
  });

  it("throws the primary's error when the fallback fails too", async () => {
    const primaryError = timeout();
    const fallback = fakeEngine("embedded", failWith(new Error("catalogue missing")));
    await expect(service(fakeEngine("fusion", failWith(primaryError)).engine, fallback.engine).search(request)).rejects.toBe(primaryError);
    expect(fallback.calls.search).toBe(1);
  });

  it("answers from the fallback, not degraded, when no primary is configured", async () => {
    const fallback = fakeEngine("embedded", ok("from-embedded"));
    const svc = service(null, fallback.engine);
    const result = await svc.search(request);
    expect(result).toMatchObject({ engine: "embedded", degraded: false });
    expect(result.value.docs[0]?.id).toBe("from-embedded");
    expect(svc.status()).toEqual({ serving: "embedded", primary: null, fallback: "embedded" });
  });

  it("routes product, BOM and suggest calls the same way", async () => {
    const svc = service(fakeEngine("fusion", ok("x")).engine, fakeEngine("embedded", ok("y")).engine);
    expect(await svc.getProduct("P-1")).toMatchObject({ value: { id: "fusion:P-1" }, engine: "fusion", degraded: false });
    expect(await svc.bom({ itemNumber: "I", start: 0, rows: 20 })).toMatchObject({ value: { total: 1 }, engine: "fusion" });
    expect(await svc.suggest("pu", 5)).toMatchObject({ value: ["fusion"], engine: "fusion" });
  });
});

describe("SearchService.suggest", () => {
  const withSuggest = (name: EngineName, suggest: SearchEngine["suggest"]) => ({ ...fakeEngine(name, ok("x")).engine, suggest });
  const throwing = (error: unknown) => async (): Promise<string[]> => {
    throw error;
  };

  it("counts a type-ahead outage for the circuit and answers from the fallback", async () => {
    const svc = service(withSuggest("fusion", throwing(timeout())), fakeEngine("embedded", ok("y")).engine);
    for (let i = 0; i < 3; i++) expect(await svc.suggest("pu", 5)).toMatchObject({ value: ["embedded"], engine: "embedded", degraded: true });
    expect(svc.status()).toMatchObject({ serving: "embedded", primary: { breaker: { state: "open", consecutiveFailures: 3 } } });
  });

  it("gives no suggestions, not an error, when the platform refuses the request or both engines fail", async () => {
    const refused = service(withSuggest("fusion", throwing(httpError(400, "Bad Request"))), fakeEngine("embedded", ok("y")).engine);
    expect(await refused.suggest("pu", 5)).toMatchObject({ value: [], engine: "fusion" });
    const misconfigured = service(withSuggest("fusion", throwing(httpError(401, "Unauthorized"))), fakeEngine("embedded", ok("y")).engine);
    expect(await misconfigured.suggest("pu", 5)).toMatchObject({ value: ["embedded"], engine: "embedded", degraded: true });
    const down = service(withSuggest("fusion", throwing(timeout())), withSuggest("embedded", throwing(new Error("catalogue missing"))));
    expect((await down.suggest("pu", 5)).value).toEqual([]);
  });
});

describe("SearchService circuit breaker", () => {
  it("skips the primary entirely after 3 consecutive outages and answers from the fallback without waiting for it", async () => {
    let hang = false;
    const primary = fakeEngine("fusion", async () => {
      if (hang) await new Promise((resolve) => setTimeout(resolve, 1_000));
      throw timeout();
    });
    const fallback = fakeEngine("embedded", ok("from-embedded"));
    const svc = service(primary.engine, fallback.engine);
    for (let i = 0; i < 3; i++) expect((await svc.search(request)).degraded).toBe(true);
    expect(primary.calls.search).toBe(3);

    // The primary would now hang: the answer comes from the fallback because the primary is not asked.
    hang = true;
    const fourth = await svc.search(request);
    expect(fourth).toMatchObject({ engine: "embedded", degraded: true });
    expect(primary.calls.search).toBe(3);
    expect(svc.status()).toMatchObject({ serving: "embedded", primary: { name: "fusion", breaker: { state: "open", consecutiveFailures: 3 } } });
  });

  it("throws the fallback's error when the breaker is open and the fallback fails", async () => {
    const fallbackError = new Error("catalogue missing");
    let fallbackFails = false;
    const fallback = fakeEngine("embedded", async () => {
      if (fallbackFails) throw fallbackError;
      return answer("from-embedded");
    });
    const svc = service(fakeEngine("fusion", failWith(timeout())).engine, fallback.engine);
    for (let i = 0; i < 3; i++) await svc.search(request);
    fallbackFails = true;
    await expect(svc.search(request)).rejects.toBe(fallbackError);
  });

  it("lets one trial through after the cool-down; success closes the breaker", async () => {
    const c = clock();
    const breaker = new CircuitBreaker({ failureThreshold: 3, cooldownMs: 30_000, now: c.now });
    let up = false;
    const primary = fakeEngine("fusion", async () => {
      if (!up) throw timeout();
      return answer("from-fusion");
    });
    const svc = service(primary.engine, fakeEngine("embedded", ok("from-embedded")).engine, breaker);
    for (let i = 0; i < 3; i++) await svc.search(request);
    c.advance(29_999);
    await svc.search(request);
    expect(primary.calls.search).toBe(3);

    c.advance(1);
    expect(svc.status().primary?.breaker.state).toBe("half-open");
    up = true;
    const trial = await svc.search(request);
    expect(trial).toMatchObject({ engine: "fusion", degraded: false });
    expect(primary.calls.search).toBe(4);
    expect(svc.status()).toMatchObject({ serving: "fusion", primary: { breaker: { state: "closed", consecutiveFailures: 0 } } });
    await svc.search(request);
    expect(primary.calls.search).toBe(5);
  });

  it("opens again for a whole cool-down when the trial fails", async () => {
    const c = clock();
    const breaker = new CircuitBreaker({ failureThreshold: 3, cooldownMs: 30_000, now: c.now });
    const primary = fakeEngine("fusion", failWith(timeout()));
    const svc = service(primary.engine, fakeEngine("embedded", ok("e")).engine, breaker);
    for (let i = 0; i < 3; i++) await svc.search(request);
    c.advance(30_000);
    expect((await svc.search(request)).engine).toBe("embedded");
    expect(primary.calls.search).toBe(4);
    expect(svc.status().primary?.breaker.state).toBe("open");
    c.advance(29_999);
    await svc.search(request);
    expect(primary.calls.search).toBe(4);
  });

  it("does not count an aborted request as a failure, and does not answer it from the fallback", async () => {
    const primary = fakeEngine("fusion", async (_req, context) => {
      if (context?.signal?.aborted) throw new FusionError("failed", MESSAGES.failed);
      return answer("from-fusion");
    });
    const fallback = fakeEngine("embedded", ok("from-embedded"));
    const svc = service(primary.engine, fallback.engine);
    const controller = new AbortController();
    controller.abort();
    for (let i = 0; i < 4; i++) {
      await expect(svc.search(request, { signal: controller.signal })).rejects.toBeInstanceOf(FusionError);
    }
    expect(fallback.calls.search).toBe(0);
    expect(svc.status().primary?.breaker).toMatchObject({ state: "closed", consecutiveFailures: 0 });
    expect((await svc.search(request)).engine).toBe("fusion");
    expect(primary.calls.search).toBe(5);
  });

  it("counts a configuration error against the circuit like an outage, and a refused request as a sign of life", async () => {
    let next: FusionError = timeout();
    const primary = fakeEngine("fusion", async () => {
      throw next;
    });
    const svc = service(primary.engine, fakeEngine("embedded", ok("e")).engine);
    await svc.search(request);
    next = httpError(401, "");
    await svc.search(request);
    expect(svc.status().primary?.breaker).toMatchObject({ state: "closed", consecutiveFailures: 2 });
    next = httpError(400, "");
    await expect(svc.search(request)).rejects.toThrow("HTTP 400");
    expect(svc.status().primary?.breaker).toMatchObject({ state: "closed", consecutiveFailures: 0 });
  });

  it("reports the platform's last configuration error, until an answer without one", async () => {
    let next: unknown = httpError(403, "");
    const primary = fakeEngine("fusion", async () => {
      if (next) throw next;
      return answer("f");
    });
    const svc = service(primary.engine, fakeEngine("embedded", ok("e")).engine);
    expect(svc.status().primary).not.toHaveProperty("configurationError");
    expect((await svc.search(request)).engine).toBe("embedded");
    expect(svc.status().primary).toMatchObject({ configurationError: MESSAGES.forbidden, breaker: { state: "closed" } });
    next = httpError(400, "undefined field nonsense_s");
    await expect(svc.search(request)).rejects.toThrow();
    expect(svc.status().primary).not.toHaveProperty("configurationError");
    next = httpError(404, "");
    expect((await svc.search(request)).engine).toBe("embedded");
    expect(svc.status().primary?.configurationError).toBe(MESSAGES.notFound);
    next = null;
    await svc.search(request);
    expect(svc.status().primary).not.toHaveProperty("configurationError");
  });

  it("reports the serving engine and the breaker state", async () => {
    const c = clock();
    const breaker = new CircuitBreaker({ failureThreshold: 3, cooldownMs: 10_000, now: c.now });
    const svc = service(fakeEngine("fusion", failWith(timeout())).engine, fakeEngine("embedded", ok("e")).engine, breaker);
    expect(svc.status()).toEqual({
      serving: "fusion",
      primary: { name: "fusion", breaker: { state: "closed", consecutiveFailures: 0, openedAt: null, retryAt: null } },
      fallback: "embedded",
    });
    for (let i = 0; i < 3; i++) await svc.search(request);
    expect(svc.status()).toEqual({
      serving: "embedded",
      primary: { name: "fusion", breaker: { state: "open", consecutiveFailures: 3, openedAt: c.now(), retryAt: c.now() + 10_000 } },
      fallback: "embedded",
    });
  });

  describe("an export whose platform fails", () => {
    const cursorRequest: CursorRequest = { q: "", within: [], filters: [], sort: null, batchSize: 100 };
    /** A primary whose cursor yields `before` batches, then throws `error`. */
    const failingCursor = (before: number, error: unknown) => ({
      ...fakeEngine("fusion", ok("x")).engine,
      async *cursor(): AsyncIterable<Doc[]> {
        for (let i = 0; i < before; i++) yield [{ id: `fusion-${i}` }];
        throw error;
      },
    });
    const read = async (svc: SearchService, out: string[]) => {
      for await (const batch of svc.cursor(cursorRequest)) out.push(...batch.map((d) => d.id));
    };

    it("is read from the backup when the outage comes before the first row, and counts for the circuit", async () => {
      const svc = service(failingCursor(0, timeout()), fakeEngine("embedded", ok("e")).engine);
      const out: string[] = [];
      await read(svc, out);
      expect(out).toEqual(["embedded-row"]);
      expect(svc.status().primary?.breaker).toMatchObject({ state: "closed", consecutiveFailures: 1 });
    });

    it("fails after the first row rather than switch engines mid-file, and counts for the circuit", async () => {
      const fallback = fakeEngine("embedded", ok("e"));
      const svc = service(failingCursor(1, timeout()), fallback.engine);
      const out: string[] = [];
      await expect(read(svc, out)).rejects.toThrow(MESSAGES.timeout);
      expect(out).toEqual(["fusion-0"]);
      expect(fallback.calls.cursor).toBe(0);
      expect(svc.status().primary?.breaker).toMatchObject({ consecutiveFailures: 1 });
    });

    it("reads from the backup when the platform answers a configuration error before the first row", async () => {
      const fallback = fakeEngine("embedded", ok("e"));
      const svc = service(failingCursor(0, httpError(401, "Unauthorized")), fallback.engine);
      await read(svc, []);
      expect(fallback.calls.cursor).toBe(1);
      expect(svc.status().primary).toMatchObject({ configurationError: MESSAGES.unauthorized, breaker: { consecutiveFailures: 1 } });
    });
  });

  it("exports through the primary's cursor only while the breaker is closed", async () => {
    const primary = fakeEngine("fusion", failWith(timeout()));
    const fallback = fakeEngine("embedded", ok("e"));
    const svc = service(primary.engine, fallback.engine);
    const cursorRequest: CursorRequest = { q: "", within: [], filters: [], sort: null, batchSize: 100 };
    const rows = async () => {
      const out: string[] = [];
      for await (const batch of svc.cursor(cursorRequest)) out.push(...batch.map((d) => d.id));
      return out;
    };
    expect(await rows()).toEqual(["fusion-row"]);
    for (let i = 0; i < 3; i++) await svc.search(request);
    expect(await rows()).toEqual(["embedded-row"]);
    expect(primary.calls.cursor).toBe(1);
    expect(fallback.calls.cursor).toBe(1);
  });
});

describe("a call whose source is fixed", () => {
  it("is answered by the platform only: an outage, a configuration error or an open circuit is PlatformUnavailable, never the backup", async () => {
    const c = clock();
    const fallback = fakeEngine("embedded", ok("e"));
    const svc = service(fakeEngine("fusion", failWith(timeout())).engine, fallback.engine, new CircuitBreaker({ failureThreshold: 2, cooldownMs: 10_000, now: c.now }));
    const first = await svc.search(request, undefined, "platform").catch((error: unknown) => error);
    expect(first).toBeInstanceOf(PlatformUnavailable);
    expect((first as PlatformUnavailable).userMessage).toBe(MESSAGES.timeout);
    await svc.search(request);
    expect(svc.status().primary?.breaker.state).toBe("open");
    await expect(svc.search(request, undefined, "platform")).rejects.toBeInstanceOf(PlatformUnavailable);
    // Only the unfixed search went to the backup.
    expect(fallback.calls.search).toBe(1);

    const refused = service(fakeEngine("fusion", failWith(httpError(401, "Unauthorized"))).engine, fallback.engine);
    await expect(refused.search(request, undefined, "platform")).rejects.toMatchObject({ userMessage: MESSAGES.unauthorized });
  });

  it("is answered by the backup only, marked as degraded, without asking the platform", async () => {
    const primary = fakeEngine("fusion", ok("f"));
    const svc = service(primary.engine, fakeEngine("embedded", ok("e")).engine);
    expect(await svc.search(request, undefined, "backup")).toMatchObject({ engine: "embedded", degraded: true, value: answer("e") });
    const rows: string[] = [];
    for await (const batch of svc.cursor({ q: "", within: [], filters: [], sort: null, batchSize: 10 }, undefined, "backup")) rows.push(...batch.map((d) => d.id));
    expect(rows).toEqual(["embedded-row"]);
    expect(primary.calls).toEqual({ search: 0, cursor: 0 });
  });

  it("changes nothing without a platform: the one engine answers", async () => {
    const svc = service(null, fakeEngine("embedded", ok("e")).engine);
    expect(await svc.search(request, undefined, "platform")).toMatchObject({ engine: "embedded", degraded: false });
  });
});

describe("SearchService.pageCursor", () => {
  /** Every batch of a cursor, in order. */
  async function batchesOf(cursor: AsyncIterable<Doc[]>): Promise<string[][]> {
    const out: string[][] = [];
    for await (const batch of cursor) out.push(batch.map((d) => d.id));
    return out;
  }

  it("is the one page a search answers, as one batch, from the engine `search` would ask", async () => {
    const primary = fakeEngine("fusion", failWith(timeout()));
    const fallback = fakeEngine("embedded", ok("from-embedded"));
    expect(await batchesOf(service(primary.engine, fallback.engine).pageCursor(request))).toEqual([["from-embedded"]]);
    expect(primary.calls.search).toBe(1);
    expect(fallback.calls.search).toBe(1);
  });

  it("is an empty batch when the page is empty", async () => {
    const empty: SearchImpl = async () => ({ ...answer("x"), docs: [], total: 0 });
    expect(await batchesOf(service(null, fakeEngine("embedded", empty).engine).pageCursor(request))).toEqual([[]]);
  });

  it("keeps to its source: a platform that fails a page only it may answer is PlatformUnavailable, not the backup's page", async () => {
    const fallback = fakeEngine("embedded", ok("from-embedded"));
    const read = service(fakeEngine("fusion", failWith(timeout())).engine, fallback.engine).pageCursor(request, undefined, "platform");
    await expect(batchesOf(read)).rejects.toBeInstanceOf(PlatformUnavailable);
    expect(fallback.calls.search).toBe(0);
  });
});

describe("SearchService.bomCursor", () => {
  /** An engine with `records` BOM records of one number, answering each page as asked, and the pages it was asked for. */
  function bomEngine(name: EngineName, records: number, bom?: SearchEngine["bom"]) {
    const asked: BomRequest[] = [];
    const engine: SearchEngine = {
      ...fakeEngine(name, ok("x")).engine,
      bom: async (req) => {
        asked.push(req);
        if (bom) return bom(req);
        const ids = Array.from({ length: Math.max(0, Math.min(req.rows, records - req.start)) }, (_, i) => req.start + i);
        return { docs: ids.map((i) => ({ id: `r${i}`, type: "asset", org_code: null, item_number: "ITM-1", asset_number: null, asset_serial_number: null, asset_group: null, asset_description: null, quantity: 1 })), total: records };
      },
    };
    return { engine, asked };
  }
  const paging = { pageSize: 2, pauseMs: 0 };
  const pagesOf = async (cursor: AsyncIterable<{ id: string }[]>) => {
    const out: string[][] = [];
    for await (const page of cursor) out.push(page.map((d) => d.id));
    return out;
  };

  it("reads pages of the size asked up to the limit, with the number and type asked", async () => {
    const { engine, asked } = bomEngine("embedded", 10);
    const pages = await pagesOf(service(null, engine).bomCursor({ itemNumber: "ITM-1", type: "pm", limit: 5 }, {}, paging));
    expect(pages).toEqual([["r0", "r1"], ["r2", "r3"], ["r4"]]);
    expect(asked).toEqual([
      { itemNumber: "ITM-1", type: "pm", start: 0, rows: 2 },
      { itemNumber: "ITM-1", type: "pm", start: 2, rows: 2 },
      { itemNumber: "ITM-1", type: "pm", start: 4, rows: 1 },
    ]);
  });

  it("stops at the records' total, and at a page that comes back short, whatever the total says", async () => {
    const few = bomEngine("embedded", 3);
    expect(await pagesOf(service(null, few.engine).bomCursor({ assetNumber: "AST-1", limit: 100 }, {}, paging))).toEqual([["r0", "r1"], ["r2"]]);
    expect(few.asked.map((r) => r.start)).toEqual([0, 2]);

    const short = bomEngine("embedded", 0, async () => ({ docs: [], total: 50 }));
    expect(await pagesOf(service(null, short.engine).bomCursor({ itemNumber: "ITM-1", limit: 100 }, {}, paging))).toEqual([]);
    expect(short.asked).toHaveLength(1);
  });

  it("asks nothing for a limit of 0", async () => {
    const { engine, asked } = bomEngine("embedded", 10);
    expect(await pagesOf(service(null, engine).bomCursor({ itemNumber: "ITM-1", limit: 0 }, {}, paging))).toEqual([]);
    expect(asked).toHaveLength(0);
  });

  it("answers each page as `bom` does: from the backup while the platform is out", async () => {
    const primary = bomEngine("fusion", 0, async () => {
      throw timeout();
    });
    const fallback = bomEngine("embedded", 3);
    expect(await pagesOf(service(primary.engine, fallback.engine).bomCursor({ itemNumber: "ITM-1", limit: 3 }, {}, paging))).toEqual([["r0", "r1"], ["r2"]]);
    expect(fallback.asked).toHaveLength(2);
  });

  it("pauses between pages, and stops there when the client goes away", async () => {
    const { engine, asked } = bomEngine("embedded", 10);
    const controller = new AbortController();
    const read = service(null, engine).bomCursor({ itemNumber: "ITM-1", limit: 10 }, { signal: controller.signal }, { pageSize: 1, pauseMs: 60_000 })[Symbol.asyncIterator]();
    expect((await read.next()).value).toHaveLength(1);
    const second = read.next();
    controller.abort();
    await expect(second).rejects.toThrow();
    expect(asked).toHaveLength(1);
  });
});

describe("the log of a platform failure", () => {
  it("is one line with the engine's diagnosis and what the user got", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const error = timeout();
    error.detail = "Request timeout - Fusion service may be slow or unreachable [timeout; GET http://fusion/api; 30001 ms; request r-1]";
    await service(fakeEngine("fusion", failWith(error)).engine, fakeEngine("embedded", ok("e")).engine).search(request, { requestId: "r-1" });
    expect(warn.mock.calls.map((call) => call.join(" "))).toEqual([`[r-1] fusion failed: ${JSON.stringify(error.detail)}; answered from the backup (embedded)`]);
    warn.mockClear();
    await service(fakeEngine("fusion", failWith(error)).engine, fakeEngine("embedded", failWith(new Error("disk"))).engine).search(request, { requestId: "r-2" }).catch(() => null);
    expect(warn.mock.calls.map((call) => call.join(" "))).toEqual([`[r-2] fusion failed: ${JSON.stringify(error.detail)}; the backup (embedded) failed too: answered with an error`]);
  });
});

describe("SearchService.platformStatus", () => {
  it("asks the platform's health check at most once per cache period, and not while the circuit is open", async () => {
    let checks = 0;
    let healthy = true;
    const primary = { ...fakeEngine("fusion", failWith(timeout())).engine, health: async () => (checks++, { ok: healthy }) };
    const svc = service(primary, fakeEngine("embedded", ok("e")).engine);
    expect(await svc.platformStatus(1_000)).toEqual({ ok: true });
    expect(await svc.platformStatus(1_000 + PLATFORM_HEALTH_CACHE_MS - 1)).toEqual({ ok: true });
    expect(checks).toBe(1);
    healthy = false;
    expect(await svc.platformStatus(1_000 + PLATFORM_HEALTH_CACHE_MS)).toEqual({ ok: false });
    expect(checks).toBe(2);
    for (let i = 0; i < 3; i++) await svc.search(request);
    expect(svc.status().primary?.breaker.state).toBe("open");
    expect(await svc.platformStatus(99_999_999)).toMatchObject({ ok: false });
    expect(checks).toBe(2);
  });

  it("asks again when a search contradicts the last answer", async () => {
    let checks = 0;
    let next: unknown = null;
    const primary = {
      ...fakeEngine("fusion", async () => {
        if (next) throw next;
        return answer("f");
      }).engine,
      health: async () => (checks++, { ok: next === null }),
    };
    const svc = service(primary, fakeEngine("embedded", ok("e")).engine);
    next = httpError(401, "");
    expect((await svc.platformStatus(1_000))?.ok).toBe(false);
    next = null;
    await svc.search(request);
    expect((await svc.platformStatus(1_001))?.ok).toBe(true);
    expect(checks).toBe(2);
  });

  it("is null without a platform", () => {
    expect(service(null, fakeEngine("embedded", ok("e")).engine).platformStatus()).toBeNull();
  });
});
