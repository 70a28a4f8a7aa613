/**
 * The fault-and-load benchmark (`npm run bench:load`): the portal as `npm start` serves it
 * (scripts/serve.mjs, the HTTP server with its envelope, WEB_CONCURRENCY=2) under autocannon with
 * 50 connections on a mix of pages (searches with filters, items, Where Used, the search API, a
 * CSV export), in three runs:
 *
 *   embedded  the embedded catalogue alone;
 *   hostile   the same, with 10 hostile URLs a second (20 filters of 200 characters, 100 rows) sent
 *             beside the mix: the mix's p99 against the embedded run's;
 *   fusion    Fusion = the stand-in (tests/fusion-stand-in/, under its supervisor) while a driver
 *             kills it, starts it again, makes it hang and answer 401 in turn.
 *
 * It prints requests/s, p50, p99, the slowest answer, errors (no answer), answers by status class,
 * and the workers' resident memory after the warm-up and at the end; then each page of the mix
 * and the hostile URL asked alone, one after the other, to show how long one request holds a worker.
 * Targets (issue 19): 0 errors and 0 × 5xx; every answer within the Fusion timeout + 1 s; memory at
 * the end ≤ 1.2 × after the warm-up; the mix's p99 with the hostile URLs ≤ 1.5 × without.
 *
 *   npm run bench:load                      # 60 s a run
 *   LOAD_SECONDS=10 npm run bench:load      # a quick try
 *   LOAD_RUNS=embedded,hostile npm run bench:load
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { buildSampleCatalog } from "../app/search/engines/embedded/catalog-build.server";
import { buildApp } from "./build";
import { mib, ms, table } from "./lib";
import { freePort, startServer, type RunningServer } from "./server";

const OUT = path.resolve("bench/out");
const CATALOG = path.join(OUT, "catalog-5000.db");
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const CONNECTIONS = 50;
// A warm-up long enough for the workers' heaps, SQLite's page caches and the mapped catalogue to
// reach their working size: memory growth after it is what the run itself adds.
const WARM_UP_SECONDS = Number(process.env.LOAD_WARM_UP_SECONDS ?? Math.min(10, Math.max(3, Math.round(SECONDS / 6))));
const FUSION_TIMEOUT_MS = 2000;
const HOSTILE_PER_SECOND = 10;
const RUNS = (process.env.LOAD_RUNS ?? "embedded,hostile,fusion").split(",").map((s) => s.trim());

type Mix = { method: "GET"; path: string }[];

/** The pages of the mix, as canonical URLs (a redirect would count as an answer of its own). */
async function mixOf(base: string): Promise<{ mix: Mix; named: [string, string][] }> {
  const api = async (p: string) => ((await (await fetch(`${base}${p}`)).json()) as { data: Record<string, unknown> }).data;
  const facets = (await api("/api/facets?fields=category_s,org_code_s")).facets as { field: string; values: { value: string }[] }[];
  const categories = facets.find((f) => f.field === "category_s")!.values.map((v) => v.value);
  const orgs = facets.find((f) => f.field === "org_code_s")!.values.map((v) => v.value);
  const items = ((await api("/api/search?rows=20")).docs as { item_number_s: string }[]).map((d) => d.item_number_s);
  const words = ["pump", "valve", "seal", "motor", "switch", "filter", "hose", "gasket"];
  const canonical = async (p: string) => {
    const response = await fetch(`${base}${p}`);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${p} answered ${response.status}`);
    const url = new URL(response.url);
    return `${url.pathname}${url.search}`;
  };
  const named: [string, string][] = [];
  for (let i = 0; i < words.length; i++) {
    const params = new URLSearchParams({ q: words[i]! });
    params.append("f", `category:${categories[i % categories.length]}`);
    params.append("nf", `org_code:${orgs[i % orgs.length]}`);
    if (i % 2) params.set("rows", "50");
    named.push([`search "${words[i]}" with 2 filters`, await canonical(`/crib-search/search?${params}`)]);
  }
  for (const item of items.slice(0, 4)) {
    named.push([`item ${item}`, await canonical(`/product/${encodeURIComponent(item)}`)]);
    named.push([`Where Used ${item}`, await canonical(`/where-used/${encodeURIComponent(item)}`)]);
  }
  named.push(["API search", "/api/search?q=valve&rows=20"], ["API search, filtered", `/api/search?${new URLSearchParams({ q: "pump", filters: JSON.stringify({ category_s: [{ value: categories[0], type: "include" }] }) })}`]);
  named.push(["CSV export (page of 50)", `/crib-search/export.csv?${new URLSearchParams({ q: "seal", rows: "50", scope: "page" })}`]);
  // Searches are most of what people do: the mix asks them twice as often.
  const paths = [...named.map(([, p]) => p), ...named.filter(([name]) => name.startsWith("search")).map(([, p]) => p)];
  return { mix: paths.map((p) => ({ method: "GET" as const, path: p })), named };
}

/** A hostile URL: 20 exclude filters of 200 characters (each a different one), 100 rows. */
function hostileUrl(n: number): string {
  const params = new URLSearchParams();
  const facets = ["category", "org_code", "manufacturer", "item_type", "status"];
  for (let i = 0; i < 20; i++) params.append("nf", `${facets[i % facets.length]}:${n}-${i}-${"x".repeat(190)}`);
  params.set("rows", "100");
  return `/crib-search/search?${params}`;
}

/** The resident memory of the server's worker processes (the cluster's children), in bytes. */
function workerRss(server: RunningServer): number[] {
  const pid = server.process.pid!;
  const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
  return children.map((child) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child}/status`, "utf8"))?.[1] ?? 0) * 1024);
}

function cannon(url: string, mix: Mix, seconds: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    // Timeout above any answer the portal should give, so a slow answer is measured, not dropped.
    autocannon({ url, connections: CONNECTIONS, duration: seconds, requests: mix, timeout: 30 }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

interface RunFigures {
  name: string;
  result: autocannon.Result;
  rssStart: number[];
  rssEnd: number[];
  series: number[][];
  hostile?: { sent: number; statuses: Record<string, number>; failed: number };
  notes: string[];
}

function statusClasses(result: autocannon.Result): Record<string, number> {
  const classes: Record<string, number> = {};
  const stats = (result as unknown as { statusCodeStats: Record<string, { count: number }> }).statusCodeStats ?? {};
  for (const [code, { count }] of Object.entries(stats)) classes[`${code[0]}xx`] = (classes[`${code[0]}xx`] ?? 0) + count;
  return classes;
}

async function run(name: string, server: RunningServer, mix: Mix, during?: (stop: AbortSignal) => Promise<RunFigures["hostile"] | void>): Promise<RunFigures> {
  await cannon(server.url, mix, WARM_UP_SECONDS);
  const rssStart = workerRss(server);
  const stop = new AbortController();
  const side = during?.(stop.signal);
  // The workers' memory every tenth of the run: a leak grows to the end, a warming heap levels off.
  const series: number[][] = [];
  const sampler = setInterval(() => series.push(workerRss(server)), (SECONDS * 1000) / 10);
  const result = await cannon(server.url, mix, SECONDS);
  clearInterval(sampler);
  stop.abort();
  const hostile = (await side) ?? undefined;
  const rssEnd = workerRss(server);
  return { name, result, rssStart, rssEnd, series, ...(hostile ? { hostile } : {}), notes: [] };
}

/** Sends HOSTILE_PER_SECOND hostile URLs a second until stopped, each on its own request. */
async function hostileSender(base: string, signal: AbortSignal) {
  const statuses: Record<string, number> = {};
  let sent = 0;
  let failed = 0;
  const pending: Promise<void>[] = [];
  while (!signal.aborted) {
    const url = `${base}${hostileUrl(sent)}`;
    sent++;
    pending.push(
      // Followed, as a browser would: the canonical page after the redirect is the one that costs.
      fetch(url)
        .then(async (response) => {
          await response.arrayBuffer();
          statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        })
        .catch(() => void failed++),
    );
    await new Promise((r) => setTimeout(r, 1000 / HOSTILE_PER_SECOND));
  }
  await Promise.all(pending);
  return { sent, statuses, failed };
}

/** Each page alone, three times: the longest a single request held a worker. */
async function alone(base: string, named: [string, string][]): Promise<[string, number, number][]> {
  const out: [string, number, number][] = [];
  for (const [name, p] of [...named, ["hostile 20-filter URL (after its redirect)", hostileUrl(1)] as [string, string]]) {
    let slowest = 0;
    let bytes = 0;
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const response = await fetch(`${base}${p}`);
      bytes = (await response.arrayBuffer()).byteLength;
      slowest = Math.max(slowest, performance.now() - started);
    }
    out.push([name, slowest, bytes]);
  }
  return out;
}

/** The stand-in under its supervisor, so that the driver can kill it and start it again. */
async function startSupervisedStandIn() {
  const [port, control] = [await freePort(), await freePort()];
  const child = spawn("npx", ["tsx", "tests/fusion-stand-in/supervisor.ts", "--port", String(port), "--control-port", String(control), "--catalog", CATALOG], {
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  const controlUrl = `http://127.0.0.1:${control}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/api`)).ok) break;
    } catch {
      // starting
    }
    if (i > 900) throw new Error("stand-in did not start");
    await new Promise((r) => setTimeout(r, 200));
  }
  const post = async (target: string, body?: unknown) => {
    const response = await fetch(target, { method: "POST", headers: { "Content-Type": "application/json" }, ...(body ? { body: JSON.stringify(body) } : {}) });
    if (!response.ok) throw new Error(`${target} answered ${response.status}`);
  };
  return {
    url,
    fault: (fault: unknown) => post(`${url}/__control/fault`, fault),
    kill: () => post(`${controlUrl}/kill`),
    start: () => post(`${controlUrl}/start`),
    stop: () => process.kill(-child.pid!, "SIGTERM"),
  };
}

type StandIn = Awaited<ReturnType<typeof startSupervisedStandIn>>;

/** Kills, starts, hangs and 401s the stand-in in turn, an eighth of the run each, healthy between. */
async function faultDriver(standIn: StandIn, signal: AbortSignal, log: string[]) {
  const step = (SECONDS * 1000) / 8;
  const wait = (msWait: number) => new Promise((r) => setTimeout(r, msWait));
  const started = Date.now();
  const at = (what: string) => log.push(`${((Date.now() - started) / 1000).toFixed(1)} s: ${what}`);
  const steps: [string, () => Promise<void>][] = [
    ["healthy", () => standIn.fault({ kind: "none" })],
    ["killed (SIGKILL)", () => standIn.kill()],
    ["started again", () => standIn.start()],
    ["hanging", () => standIn.fault({ kind: "hang" })],
    ["healthy", () => standIn.fault({ kind: "none" })],
    ["answering 401", () => standIn.fault({ kind: "status", status: 401 })],
    ["healthy", () => standIn.fault({ kind: "none" })],
  ];
  for (const [name, act] of steps) {
    if (signal.aborted) break;
    await act();
    at(name);
    await wait(step);
  }
}

function figures(runs: RunFigures[]) {
  const rows: (string | number)[][] = [["run", "req/s", "p50", "p99", "max", "errors", "timeouts", "2xx", "3xx", "4xx", "5xx", "worker RSS start", "end", "end/start"]];
  for (const { name, result, rssStart, rssEnd } of runs) {
    const classes = statusClasses(result);
    const ratio = Math.max(...rssEnd.map((end, i) => end / (rssStart[i] ?? end)));
    rows.push([
      name,
      result.requests.average.toFixed(0),
      ms(result.latency.p50),
      ms(result.latency.p99),
      ms(result.latency.max),
      result.errors,
      result.timeouts,
      classes["2xx"] ?? 0,
      classes["3xx"] ?? 0,
      classes["4xx"] ?? 0,
      classes["5xx"] ?? 0,
      rssStart.map(mib).join(" + "),
      rssEnd.map(mib).join(" + "),
      ratio.toFixed(2),
    ]);
  }
  return table(rows);
}

const loadAtStart = os.loadavg()[0]!;
const startedAt = new Date();
fs.mkdirSync(OUT, { recursive: true });
if (!fs.existsSync(CATALOG)) buildSampleCatalog(CATALOG, { items: 5000 });
const serverBuild = buildApp({ name: "build-load" });
const runs: RunFigures[] = [];
let single: [string, number, number][] = [];

if (RUNS.includes("embedded") || RUNS.includes("hostile")) {
  const server = await startServer(serverBuild, { CATALOG_DB: CATALOG, WEB_CONCURRENCY: "2" });
  try {
    const { mix, named } = await mixOf(server.url);
    if (RUNS.includes("embedded")) runs.push(await run("embedded", server, mix));
    if (RUNS.includes("hostile")) {
      const figuresOf = await run("embedded + hostile", server, mix, (signal) => hostileSender(server.url, signal));
      runs.push(figuresOf);
    }
    single = await alone(server.url, named);
  } finally {
    await server.stop();
  }
}

if (RUNS.includes("fusion")) {
  const standIn = await startSupervisedStandIn();
  let server: RunningServer | null = null;
  try {
    server = await startServer(serverBuild, {
      CATALOG_DB: CATALOG,
      WEB_CONCURRENCY: "2",
      FUSION_URL: standIn.url,
      FUSION_APP: "parts",
      FUSION_TIMEOUT_MS: String(FUSION_TIMEOUT_MS),
      FUSION_BREAKER_COOLDOWN_MS: "3000",
    });
    const { mix } = await mixOf(server.url);
    const log: string[] = [];
    const figuresOf = await run("fusion, faults", server, mix, (signal) => faultDriver(standIn, signal, log));
    figuresOf.notes = log;
    runs.push(figuresOf);
  } finally {
    await server?.stop();
    standIn.stop();
  }
}

console.log(`bench:load — autocannon -c ${CONNECTIONS} -d ${SECONDS} (after a ${WARM_UP_SECONDS} s warm-up), WEB_CONCURRENCY=2, scripts/serve.mjs`);
console.log(`${startedAt.toISOString()} to ${new Date().toISOString()}, 1-minute load average ${loadAtStart.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)}`);
console.log(figures(runs));
for (const r of runs) {
  if (r.hostile) console.log(`${r.name}: ${r.hostile.sent} hostile requests sent beside the mix, answered ${JSON.stringify(r.hostile.statuses)}, ${r.hostile.failed} without an answer`);
  console.log(`${r.name}: workers' RSS every ${SECONDS / 10} s: ${r.series.map((s) => s.map((b) => (b / 1024 / 1024).toFixed(0)).join("+")).join(", ")} MiB`);
  if (r.notes.length) console.log(`${r.name}: the stand-in was ${r.notes.join("; ")}`);
}
const embedded = runs.find((r) => r.name === "embedded");
const hostile = runs.find((r) => r.name === "embedded + hostile");
if (embedded && hostile) console.log(`mix p99 with the hostile URLs / without: ${(hostile.result.latency.p99 / embedded.result.latency.p99).toFixed(2)} (target ≤ 1.5)`);
if (single.length) {
  console.log("\nEach page alone (slowest of 3, embedded catalogue, no other load):");
  console.log(table([["page", "time", "bytes"], ...single.map(([name, t, bytes]) => [name, ms(t), bytes])]));
}
const fusionRun = runs.find((r) => r.name.startsWith("fusion"));
if (fusionRun) console.log(`\nfusion run: slowest answer ${ms(fusionRun.result.latency.max)} (target ≤ FUSION_TIMEOUT_MS + 1 s = ${FUSION_TIMEOUT_MS + 1000} ms)`);
