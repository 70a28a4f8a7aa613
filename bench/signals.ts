/**
 * npm run bench:signals
 *
 * What usage signals cost and how fast they move, in three parts:
 *
 * 1. The search page's throughput with signals on ÷ off, in the same run (target ≥ 0.9): two
 *    portals on copies of one catalogue, SIGNALS_ENABLED true and false, loaded in turns by
 *    autocannon (10 connections, SIGNALS_BENCH_SECONDS each, SIGNALS_BENCH_ROUNDS rounds, which
 *    alternate which of the two goes first; short turns, so that the load of anything else on the
 *    machine changes little between the two of a round). The
 *    requests carry 1,000 sessions (cookies the portal made), so every page records its search
 *    signal rather than meeting a session's per-minute cap.
 * 2. Forwarding: 5,000 signals in an outbox sent to the Fusion stand-in (its own process), in
 *    batches of 10: signals per second.
 * 3. /analytics?days=90 over 1,000,000 signals of 90 days, folded into the analytics totals: p95 of
 *    200 requests, 4 at a time (target ≤ 300 ms); the first requests, which make the period totals,
 *    are the warm-up.
 */
import fs from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { buildSampleCatalog } from "../app/search/engines/embedded/catalog-build.server";
import { SignalForwarder } from "../app/signals/forwarder.server";
import type { Signal } from "../app/signals/model.server";
import { Signals } from "../app/signals/signals.server";
import { buildApp } from "./build";
import { median, percentile, table } from "./lib";
import { startServer, startStandIn, type RunningServer } from "./server";

const OUT = path.resolve("bench/out");
const CATALOG = path.join(OUT, "catalog-5000.db");
const SECONDS = Number(process.env.SIGNALS_BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.SIGNALS_BENCH_ROUNDS ?? 8);
const PAGE = "/crib-search/search?q=pump&f=org_code:LOU";
const ANALYTICS_SIGNALS = Number(process.env.SIGNALS_BENCH_ANALYTICS ?? 1_000_000);

fs.mkdirSync(OUT, { recursive: true });
if (!fs.existsSync(CATALOG)) buildSampleCatalog(CATALOG, { items: 5000 });
// The app as `npm start` serves it, built into bench/out (bench/build.ts), never into build/.
const SERVER_BUILD = buildApp({ name: "build-signals" });

/** A folder of its own with a copy of the catalogue: each portal keeps its signals beside it. */
function portalDir(name: string): string {
  const dir = path.join(OUT, `signals-${name}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(CATALOG, path.join(dir, "catalog.db"));
  return dir;
}

async function sessions(server: RunningServer, n: number): Promise<string[]> {
  const cookies: string[] = [];
  for (let i = 0; i < n; i++) {
    const response = await fetch(`${server.url}/api/health`);
    await response.arrayBuffer();
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith("crib-sid="));
    if (cookie) cookies.push(cookie.split(";")[0]!);
  }
  return cookies;
}

function load(server: RunningServer, cookies: string[], seconds = SECONDS): Promise<autocannon.Result> {
  let next = 0;
  return autocannon({
    url: `${server.url}${PAGE}`,
    connections: 10,
    duration: seconds,
    requests: [{ setupRequest: (request) => ({ ...request, headers: { ...request.headers, ...(cookies.length ? { cookie: cookies[next++ % cookies.length]! } : {}) } }) }],
  });
}

// -- 1. page throughput, signals on ÷ off --------------------------------------------------------
const on = await startServer(SERVER_BUILD, { CATALOG_DB: path.join(portalDir("on"), "catalog.db"), SIGNALS_ENABLED: "true" });
const off = await startServer(SERVER_BUILD, { CATALOG_DB: path.join(portalDir("off"), "catalog.db"), SIGNALS_ENABLED: "false" });
const onCookies = await sessions(on, 1000);
const ratios: number[] = [];
const rows: (string | number)[][] = [["round", "on req/s", "off req/s", "on ÷ off"]];
// The same requests to both (the portal with signals off ignores the cookie).
const portals = { on: { server: on, cookies: onCookies }, off: { server: off, cookies: onCookies } };
// Both warmed up first (JIT, caches), not measured.
for (const { server, cookies } of Object.values(portals)) await load(server, cookies, 5);
for (let round = 1; round <= ROUNDS; round++) {
  // In turns, the first of a round alternating (on, off / off, on), so that the machine's drift
  // (other work on it speeding up or slowing down) falls on both alike.
  const order = round % 2 ? (["on", "off"] as const) : (["off", "on"] as const);
  const result: Partial<Record<"on" | "off", autocannon.Result>> = {};
  for (const which of order) result[which] = await load(portals[which].server, portals[which].cookies);
  const [onRate, offRate] = [result.on!.requests.average, result.off!.requests.average];
  ratios.push(onRate / offRate);
  rows.push([`${round} (${order[0]} first)`, onRate.toFixed(0), offRate.toFixed(0), ratios.at(-1)!.toFixed(3)]);
}
await Promise.all([on.stop(), off.stop()]);
const recorded = new Signals({ enabled: true, file: path.join(OUT, "signals-on", "signals.db"), retentionDays: 90, forwarding: null });
const stored = recorded.store.report("2000-01-01", "2999-12-31", 1).totals;
recorded.store.close();
console.log("\nSearch page throughput with signals on ÷ off (same run)");
console.log(table(rows));
console.log(`median on ÷ off: ${median(ratios).toFixed(3)} (target ≥ 0.9); searches recorded: ${stored.searches}, dropped: ${stored.dropped}`);

// -- 2. forwarding throughput ------------------------------------------------------------------
const forwardDir = portalDir("forward");
const outbox = new Signals({ enabled: true, file: path.join(forwardDir, "signals.db"), retentionDays: 90, forwarding: null, perMinute: 1e9 });
const N = 5000;
for (let i = 0; i < N; i++) outbox.record({ type: "search", data: { query: `q${i % 300}`, numResults: i % 7, searchTime: 5, filters: [] } }, { sessionId: null, userId: null, identity: "bench" });
const standIn = await startStandIn(CATALOG);
const forwarder = new SignalForwarder(outbox.store, { url: standIn.url, collection: "parts", timeoutMs: 5000 });
const started = performance.now();
while (outbox.store.pendingCount() > 0) await forwarder.step();
const forwardMs = performance.now() - started;
const arrived = ((await (await fetch(`${standIn.url}/__control/signals`)).json()) as unknown[]).length;
standIn.stop();
outbox.store.close();
console.log(`\nForwarding: ${N} signals in ${(forwardMs / 1000).toFixed(2)} s = ${((N / forwardMs) * 1000).toFixed(0)} signals/s (batches of 10); arrived at the stand-in: ${arrived}`);

// -- 3. /analytics over 1,000,000 signals ---------------------------------------------------------
const analyticsDir = portalDir("analytics");
const store = new Signals({ enabled: true, file: path.join(analyticsDir, "signals.db"), retentionDays: 90, forwarding: null }).store;
const fillStarted = performance.now();
const now = Date.now();
// Queries as people type them: a few very common, a long tail (Zipf-like over 20,000).
const queryOf = (r: number) => `query ${Math.floor(20_000 ** r)}`;
let batch: Signal[] = [];
for (let i = 0; i < ANALYTICS_SIGNALS; i++) {
  const timestamp = new Date(now - Math.floor(Math.random() * 90 * 86_400_000)).toISOString();
  const base = { id: `bench-${i}`, timestamp, sessionId: `s${i % 5000}`, userId: null };
  const kind = i % 10;
  const query = queryOf(Math.random());
  const doc = `ITEM-${Math.floor(5000 ** Math.random())}`;
  batch.push(
    kind < 6
      ? { ...base, type: "search", data: { query, numResults: i % 13 === 0 ? 0 : 20, searchTime: 5, filters: [] } }
      : kind < 8
        ? { ...base, type: "click", data: { docId: doc, position: Math.floor(Math.random() * 20), query, action: "result" } }
        : kind < 9
          ? { ...base, type: "view", data: { docId: doc, title: `Item ${doc}`, itemNumber: doc } }
          : { ...base, type: "click", data: { docId: doc, itemNumber: doc, action: "pdp_export" } },
  );
  if (batch.length === 10_000) {
    store.insert(batch, "server");
    batch = [];
  }
}
store.insert(batch, "server");
store.db.prepare("UPDATE signals SET sent_at = ?").run(now);
const foldStarted = performance.now();
store.fold();
const foldSeconds = (performance.now() - foldStarted) / 1000;
store.close();
console.log(
  `\n/analytics: ${ANALYTICS_SIGNALS} signals over 90 days written in ${((performance.now() - fillStarted) / 1000).toFixed(0)} s, ` +
    `folded into the analytics totals in ${foldSeconds.toFixed(0)} s (${((ANALYTICS_SIGNALS / foldSeconds) | 0)} signals/s)`,
);
const portal = await startServer(SERVER_BUILD, { CATALOG_DB: path.join(analyticsDir, "catalog.db") });
const times: number[] = [];
const get = async () => {
  const t = performance.now();
  const response = await fetch(`${portal.url}/analytics?days=90`);
  await response.text();
  if (!response.ok) throw new Error(`/analytics answered ${response.status}`);
  times.push(performance.now() - t);
};
for (let i = 0; i < 10; i++) await get();
times.length = 0;
for (let i = 0; i < 50; i++) await Promise.all([get(), get(), get(), get()]);
await portal.stop();
console.log(table([
  ["/analytics?days=90", "p50 ms", "p95 ms", "max ms"],
  [`${times.length} requests, 4 at a time`, percentile(times, 50).toFixed(1), percentile(times, 95).toFixed(1), Math.max(...times).toFixed(1)],
]));
console.log("target: p95 ≤ 300 ms");
process.exit(0);
