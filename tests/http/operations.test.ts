/**
 * What an operator sees, through the production server: one JSON log line per request (refusals
 * included, with why), the W3C trace passed on to Fusion, Prometheus metrics that are never
 * limited, summed over a cluster's workers, or served on a listener of their own; and what the
 * envelope refuses before the app (bodies over their bound, a Host that names no host).
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStandIn, type StandIn } from "../fusion-stand-in/server";
import { freePort } from "../processes";
import { startPortal, type TestPortal } from "./portal";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crib-operations-"));
/** The flood guard of the portal with Fusion: small enough to reach in a test. */
const PER_MINUTE = 40;
let standIn: StandIn;
let portal: TestPortal;

beforeAll(async () => {
  standIn = await startStandIn({ port: 0 });
  portal = await startPortal({ E2E_FUSION_URL: standIn.url, E2E_CATALOG_DB: path.join(dir, "fusion.db"), RATE_LIMIT_PER_MINUTE: String(PER_MINUTE) });
}, 180_000);

afterAll(async () => {
  await portal?.stop();
  await standIn?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

type Entry = Record<string, unknown>;
/** The portal's log so far, each line parsed (every line of it must be JSON). */
const logOf = (of: TestPortal): Entry[] =>
  of
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Entry);

/** Polls the log until an entry matches, for at most 10 s (the line is written when the answer ends). */
async function entryWhere(of: TestPortal, match: (entry: Entry) => boolean): Promise<Entry | undefined> {
  for (let i = 0; i < 50; i++) {
    const found = logOf(of).find(match);
    if (found) return found;
    await sleep(200);
  }
  return undefined;
}

/**
 * A request with headers fetch would refuse to send (a Host of any text). A body is sent in
 * pieces until the answer comes, as a browser does: a server that refuses it early answers before
 * it is all sent, and closes the connection.
 */
function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(url, { method: options.method ?? "GET", headers: options.headers, setHost: !options.headers?.Host, agent: false }, (res) => {
      answered = true;
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk));
      res.on("end", () => {
        resolve({ status: res.statusCode ?? 0, body });
        req.destroy();
      });
    });
    req.on("error", (error) => (answered ? undefined : reject(error)));
    const body = options.body ?? "";
    const send = async () => {
      for (let at = 0; at < body.length && !answered; at += 8192) {
        req.write(body.slice(at, at + 8192));
        await sleep(5);
      }
      if (!answered) req.end();
    };
    void send();
  });
}

const metricValue = (text: string, line: RegExp): number => Number(line.exec(text)?.[1] ?? NaN);

describe("the request log", () => {
  it("is one JSON line per request, with the id the caller gave, the route, status, time and client, never the query", async () => {
    const response = await fetch(`${portal.url}/crib-search/search?q=private+words`, { headers: { "X-Request-ID": "ops-log-1" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBe("ops-log-1");
    const entry = await entryWhere(portal, (e) => e.requestId === "ops-log-1");
    expect(entry).toMatchObject({ level: "info", msg: "request", method: "GET", route: "search", path: "/crib-search/search", status: 200, client: "127.0.0.1" });
    expect(entry).toHaveProperty("replica");
    expect(typeof entry?.ms).toBe("number");
    expect(Date.parse(String(entry?.time))).not.toBeNaN();
    expect(JSON.stringify(logOf(portal))).not.toContain("private");
  });

  it("makes an id for a request without a sane one, and names it in the answer", async () => {
    const response = await fetch(`${portal.url}/crib-search`, { headers: { "X-Request-ID": "bad id\twith spaces" } });
    const id = response.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await entryWhere(portal, (e) => e.requestId === id)).toMatchObject({ route: "home", status: 200 });
  });

  it("passes the caller's trace on to Fusion, and logs its id", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    await fetch(`${standIn.url}/__control/requests`, { method: "DELETE" });
    const response = await fetch(`${portal.url}/crib-search/search?q=valve`, { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01`, "X-Request-ID": "ops-trace-1" } });
    expect(response.status).toBe(200);
    const received = (await (await fetch(`${standIn.url}/__control/requests`)).json()) as { headers: Record<string, string> }[];
    const traced = received.filter((r) => r.headers["x-request-id"] === "ops-trace-1");
    expect(traced.length).toBeGreaterThan(0);
    for (const r of traced) expect(r.headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    expect(await entryWhere(portal, (e) => e.requestId === "ops-trace-1")).toMatchObject({ traceId });
  });
});

describe("refusals before the app", () => {
  it("answers a form over its bound 413 without reading it, and a chunked one 413 once it passes the bound", async () => {
    const big = "a=".padEnd(300_000, "x");
    const declared = await raw(`${portal.url}/theme`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(big.length), "X-Request-ID": "ops-413" }, body: big });
    expect(declared.status).toBe(413);
    expect(await entryWhere(portal, (e) => e.requestId === "ops-413")).toMatchObject({ level: "warn", status: 413, refusal: "body_too_large" });
    const chunked = await raw(`${portal.url}/lite`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked" }, body: big });
    expect(chunked.status).toBe(413);
    // A form of its bound is read as ever.
    const small = await raw(`${portal.url}/theme`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "returnTo=%2Fcrib-search" });
    expect(small.status).toBe(303);
  });

  it.each(["a b", "<script>", "[::1"])("answers Host %j with a clean 400, no stack", async (host) => {
    const answer = await raw(`${portal.url}/crib-search`, { headers: { Host: host } });
    expect(answer.status).toBe(400);
    expect(answer.body).not.toMatch(/at .+\(.+:\d+:\d+\)|TypeError|Invalid URL/);
  });

  it("logs every request the flood guard refuses, with why, and counts it; /metrics is never limited", async () => {
    const from = "127.0.0.9";
    let refused = 0;
    for (let i = 0; i < PER_MINUTE + 5; i++) {
      const answer = await new Promise<number>((resolve, reject) =>
        http.get(`${portal.url}/crib-search`, { localAddress: from, agent: false }, (res) => (res.resume(), resolve(res.statusCode ?? 0))).on("error", reject),
      );
      if (answer === 429) refused++;
    }
    expect(refused).toBeGreaterThanOrEqual(5);
    const refusedLines = () => logOf(portal).filter((e) => e.client === from && e.status === 429);
    await entryWhere(portal, () => refusedLines().length >= refused);
    const lines = refusedLines();
    expect(lines.length).toBe(refused);
    expect(lines[0]).toMatchObject({ level: "warn", refusal: "requests", route: "home" });
    const metrics = await new Promise<{ status: number; body: string }>((resolve, reject) =>
      http.get(`${portal.url}/metrics`, { localAddress: from, agent: false }, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      }).on("error", reject),
    );
    expect(metrics.status).toBe(200);
    expect(metricValue(metrics.body, /^crib_refusals_total\{reason="requests"\} (\d+)/m)).toBeGreaterThanOrEqual(refused);
  });
});

describe("/metrics", () => {
  it("answers every family an operator asks about, in Prometheus's text format", async () => {
    const response = await fetch(`${portal.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    for (const family of [
      "crib_http_request_duration_seconds",
      "crib_refusals_total",
      "crib_fusion_request_duration_seconds",
      "crib_backup_answers_total",
      "crib_fusion_breaker_state",
      "crib_signals_outbox_backlog",
      "crib_signals_outbox_oldest_age_seconds",
      "crib_store_errors_total",
      "crib_store_pool_connections",
      "crib_sessions_renewed_total",
      "crib_sessions_ended_total",
      "crib_catalogue_items",
      "crib_catalogue_built_timestamp_seconds",
      "process_resident_memory_bytes",
      "nodejs_eventloop_lag_seconds",
    ]) {
      expect(text, family).toContain(`# TYPE ${family} `);
    }
    expect(metricValue(text, /^crib_http_request_duration_seconds_count\{route="search",method="GET",status="200"\} (\d+)/m)).toBeGreaterThanOrEqual(2);
    expect(metricValue(text, /^crib_fusion_request_duration_seconds_count\{outcome="ok"\} (\d+)/m)).toBeGreaterThanOrEqual(1);
    expect(metricValue(text, /^crib_fusion_breaker_state\{engine="fusion"\} (\d+)/m)).toBe(0);
    expect(metricValue(text, /^crib_catalogue_items (\d+)/m)).toBe(200);
    // No pool without a shared store: its gauges are absent rather than zero.
    expect(text).not.toMatch(/^crib_store_up\{/m);
  });

  it("counts what the backup answers while Fusion is down", async () => {
    const before = metricValue(await (await fetch(`${portal.url}/metrics`)).text(), /^crib_backup_answers_total\{why="failed"\} (\d+)/m) || 0;
    await fetch(`${standIn.url}/__control/fault`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ kind: "status", status: 503 }) });
    try {
      const response = await fetch(`${portal.url}/crib-search/search?q=pump`);
      expect(response.status).toBe(200);
    } finally {
      await fetch(`${standIn.url}/__control/fault`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ kind: "none" }) });
    }
    const text = await (await fetch(`${portal.url}/metrics`)).text();
    expect(metricValue(text, /^crib_backup_answers_total\{why="failed"\} (\d+)/m)).toBeGreaterThan(before);
    expect(text).toMatch(/^crib_fusion_request_duration_seconds_count\{outcome="http_503"\} [1-9]/m);
  });
});

describe("/metrics of a cluster, and on a listener of its own", () => {
  let cluster: TestPortal;
  let metricsPort: number;

  beforeAll(async () => {
    metricsPort = await freePort();
    cluster = await startPortal({ WEB_CONCURRENCY: "2", METRICS_LISTEN: `127.0.0.1:${metricsPort}`, E2E_CATALOG_DB: path.join(dir, "cluster.db") });
  }, 180_000);
  afterAll(() => cluster?.stop());

  it("answers for every worker at once on its own port, and not on the portal's", async () => {
    expect((await fetch(`${cluster.url}/metrics`)).status).toBe(404);
    const count = async () => metricValue(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text(), /^crib_http_request_duration_seconds_count\{route="item",method="GET",status="404"\} (\d+)/m) || 0;
    const before = await count();
    // Connections of their own: the cluster spreads them over both workers.
    for (let i = 0; i < 12; i++) await raw(`${cluster.url}/product/NO-SUCH-ITEM-${i}`, {});
    expect(await count()).toBe(before + 12);
    const pids = new Set(logOf(cluster).filter((e) => e.route === "item").map((e) => e.pid));
    expect(pids.size).toBe(2);
  });
});
