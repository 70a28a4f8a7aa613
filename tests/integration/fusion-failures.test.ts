/**
 * Every way Fusion can fail, through the portal's own loaders (the search page, /api/search,
 * /api/health) with Fusion's HTTP answered by msw: each failure is answered from the backup
 * catalogue with the notice's data, and the spec's operator text (`Authentication failed - …`,
 * `HTTP 503: …`) is on /api/health and never in the page. A malformed query (Fusion's 400) is the
 * generic search error, with nothing of Solr's text. Unit tests of each piece are next to the code
 * (app/search/engines/fusion/*.test.ts, app/search/service.test.ts).
 */
import fs from "node:fs";
import http from "node:http";
import { createServer, type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { delay, http as mock, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";
import { createServices, installServices } from "~/registry.server";
import { healthApi, searchApi } from "~/web/api-endpoints.server";
import { loadSearchPage } from "~/web/search-page.server";
import { answerOf } from "~/web/page-signals.server";

const BASE = "http://fusion.test:6764";
const QUERY = `${BASE}/api/apps/parts/query/parts`;
/** What Solr writes about itself: none of it may reach a page or an API answer. */
const SOLR_TEXT = "org.apache.solr.search.SyntaxError: Cannot parse 'pump:' at /var/solr/data/parts_shard1";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crib-fusion-failures-"));
const catalog = path.join(dir, "catalog.db");

const server = setupServer();
// The refused connection goes to a real closed port, past msw.
beforeAll(() => server.listen({ onUnhandledRequest: "bypass" }));
afterEach(() => server.resetHandlers());
afterAll(() => {
  server.close();
  installServices(undefined);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Fresh services (no breaker or health cache carried over) with Fusion at `url` and the backup catalogue. */
function install(url = BASE, timeoutMs = "400") {
  installServices(
    createServices(
      parseConfig({
        CATALOG_DB: catalog,
        SAMPLE_ITEMS: "300",
        FUSION_URL: url,
        FUSION_APP: "parts",
        FUSION_TIMEOUT_MS: timeoutMs,
        FUSION_BREAKER_THRESHOLD: "100",
        SIGNALS_ENABLED: "false",
      }),
    ),
  );
}

/** Fusion's root answers (the health check's first step); its query profile answers `answer`. */
function fusionAnswers(answer: () => Response | Promise<Response>) {
  server.use(
    mock.get(`${BASE}/`, () => HttpResponse.json({ status: "ok" })),
    mock.get(QUERY, answer),
  );
}

async function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

const solrError = (status: number) => HttpResponse.json({ error: { msg: SOLR_TEXT, code: status } }, { status });

const failures: [string, () => Response | Promise<Response>, string][] = [
  ["a 200 whose body is not Solr's JSON", () => new HttpResponse('{"response":{"numFound":3,"docs":[{"id"', { headers: { "Content-Type": "application/json" } }), "Search request failed"],
  ["401", () => solrError(401), "Authentication failed - API key may be invalid or expired"],
  ["403", () => solrError(403), "Access forbidden - API key may not have required permissions"],
  ["404", () => solrError(404), "Query profile or collection not found - check configuration"],
  ["408", () => solrError(408), `HTTP 408: ${SOLR_TEXT}`],
  ["429", () => solrError(429), `HTTP 429: ${SOLR_TEXT}`],
  ["500", () => solrError(500), `HTTP 500: ${SOLR_TEXT}`],
  ["502 from a proxy, in HTML", () => new HttpResponse("<html><body>502 Bad Gateway nginx</body></html>", { status: 502, statusText: "Bad Gateway" }), "HTTP 502: Bad Gateway"],
  ["503", () => solrError(503), `HTTP 503: ${SOLR_TEXT}`],
  ["a redirect to another origin", () => new HttpResponse(null, { status: 302, statusText: "Found", headers: { Location: "https://sso.elsewhere.test/login" } }), "HTTP 302: Found"],
];

async function pageOf(query: string) {
  const response = answerOf(await loadSearchPage(new Request(`http://localhost/crib-search/search${query ? `?q=${query}` : ""}`), {}));
  type PageData = { error: { message: string } | null; degraded: boolean; backup: string | null; view: { total: number } | null };
  return { status: response.status, data: (await response.json()) as PageData };
}

async function apiSearch(query: string) {
  const response = await searchApi(new Request(`http://localhost/api/search?q=${query}&rows=5`), {});
  return { status: response.status, body: await response.json() };
}

/** /api/health once the platform's health check, which runs in the background, has answered. */
async function health() {
  for (const started = Date.now(); ; ) {
    const data = (await (await healthApi(new Request("http://localhost/api/health"), {})).json()).data;
    if (data.engines.primary?.health.ok !== null || Date.now() - started > 20_000) return data;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The page and the API came from the backup with the notice's data, and said nothing of the failure. */
async function expectBackupAnswers(operatorText: string) {
  const page = await pageOf("");
  expect(page.status).toBe(200);
  expect(page.data).toMatchObject({ error: null, degraded: true });
  // The notice names the backup catalogue and the day it was built.
  expect(page.data.backup).toMatch(/ the backup catalogue of \d{1,2} [A-Z][a-z]+ \d{4}; /);
  expect(page.data.view?.total).toBeGreaterThan(0);
  const pageText = JSON.stringify(page.data);
  expect(pageText).not.toContain(operatorText);
  expect(pageText).not.toMatch(/solr|nginx/i);

  const api = await apiSearch("pump");
  expect(api.status).toBe(200);
  expect(api.body.data.engine).toBe("embedded");
  expect(JSON.stringify(api.body)).not.toMatch(/solr|nginx/i);
}

describe("Fusion failing in every way", () => {
  it.each(failures)("%s: the backup answers the page and the API, and health tells operators why", async (_name, answer, operatorText) => {
    install();
    fusionAnswers(answer);
    await expectBackupAnswers(operatorText);
    const status = await health();
    expect(status.status).toBe("degraded");
    expect(JSON.stringify(status.engines.primary)).toContain(JSON.stringify(operatorText).slice(1, -1));
  });

  it("an answer over 20 MB (a gzip bomb, from a real server): the backup answers, health says the answer failed", { timeout: 30_000 }, async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(21 * 1024 * 1024, 0x20));
    const fusion = http.createServer((req, res) => {
      if (req.url === "/") return void res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
      res.writeHead(200, { "Content-Type": "application/json", "Content-Encoding": "gzip" }).end(bomb);
    });
    await new Promise<void>((resolve) => fusion.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = fusion.address() as AddressInfo;
      // A generous timeout: decompressing 21 MB on a busy machine must not read as a timeout.
      install(`http://127.0.0.1:${port}`, "20000");
      await expectBackupAnswers("Search request failed");
      expect((await health()).engines.primary.health.detail).toBe("Search request failed");
    } finally {
      fusion.closeAllConnections();
      await new Promise((resolve) => fusion.close(resolve));
    }
  });

  it("a timeout: the backup answers, and health says the platform is slow or unreachable", { timeout: 30_000 }, async () => {
    install();
    fusionAnswers(async () => {
      await delay("infinite");
      return HttpResponse.json({});
    });
    await expectBackupAnswers("Request timeout");
    const status = await health();
    expect(status.status).toBe("degraded");
    expect(status.engines.primary.health.detail).toBe("Request timeout - Fusion service may be slow or unreachable");
  });

  it("a refused connection: the backup answers, and health says the connection was refused", async () => {
    install(`http://127.0.0.1:${await closedPort()}`);
    await expectBackupAnswers("Connection refused");
    const status = await health();
    expect(status.status).toBe("degraded");
    expect(status.engines.primary.health.detail).toBe("Connection refused - Fusion service may be down");
  });

  it("a malformed query (Fusion's 400): the generic search error and a 400 on the page and from the API, nothing of Solr's text", async () => {
    install();
    fusionAnswers(() => solrError(400));
    const page = await pageOf("pump");
    // The same status on the page as from the API: the request, not the platform, was at fault.
    expect(page.status).toBe(400);
    expect(page.data.error?.message).toBe("Search failed");
    expect(page.data.degraded).toBe(false);
    expect(JSON.stringify(page.data)).not.toMatch(/solr|SyntaxError/i);
    const api = await apiSearch("pump");
    expect(api.status).toBe(400);
    expect(api.body.error.message).toBe("Search failed");
    expect(JSON.stringify(api.body)).not.toMatch(/solr|SyntaxError/i);
  });

  it("a hanging Fusion costs a page one timeout, not one per call: the number's look-up spends it, the search is not sent", async () => {
    install(BASE, "300");
    let calls = 0;
    fusionAnswers(async () => {
      calls++;
      await delay("infinite");
      return HttpResponse.json({});
    });
    // Shaped like a part number: the page looks the number up first, then searches.
    const page = await pageOf("WR55X10942");
    expect(page.status).toBe(200);
    expect(page.data.degraded).toBe(true);
    expect(calls).toBe(1);
  });

  it("health is ok again, and pages carry no notice, once Fusion answers", async () => {
    install();
    fusionAnswers(() => HttpResponse.json({ responseHeader: { status: 0 }, response: { numFound: 1, start: 0, docs: [{ id: "1", item_number_s: "A-1" }] } }));
    const page = await pageOf("pump");
    expect(page.data).toMatchObject({ error: null, degraded: false, backup: null });
    expect((await health()).status).toBe("ok");
  });
});
