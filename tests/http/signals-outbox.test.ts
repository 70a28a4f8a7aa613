/**
 * The outbox with real processes: a portal whose Fusion is the stand-in under its supervisor
 * (tests/fusion-stand-in/supervisor.ts). Searches made while Fusion is killed, and while the portal
 * itself is restarted, reach Fusion once Fusion is back, each exactly once, and /analytics counts
 * each once; each carries the session of the portal's own cookie, whatever headers a client sends.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../processes";
import { startPortal, type TestPortal } from "./portal";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crib-outbox-"));
let supervisor: ChildProcess;
let standInUrl: string;
let controlUrl: string;
let portal: TestPortal;
let cookie = "";

const control = async (action: "kill" | "start") => expect((await fetch(`${controlUrl}/${action}`, { method: "POST" })).status).toBe(200);

async function startSupervisor(): Promise<void> {
  const [port, controlPort] = [await freePort(), await freePort()];
  standInUrl = `http://127.0.0.1:${port}`;
  controlUrl = `http://127.0.0.1:${controlPort}`;
  let output = "";
  supervisor = spawn(
    process.execPath,
    ["--import", "tsx", "tests/fusion-stand-in/supervisor.ts", "--port", String(port), "--control-port", String(controlPort), "--connection", "close-after-answer"],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  supervisor.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  supervisor.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  const deadline = Date.now() + 120_000;
  while (!(await fetch(`${standInUrl}/api`).then((r) => r.ok, () => false))) {
    if (supervisor.exitCode !== null || Date.now() > deadline) throw new Error(`The stand-in did not start:\n${output}`);
    await sleep(200);
  }
}

const portalEnv = () => ({ E2E_FUSION_URL: standInUrl, E2E_CATALOG_DB: path.join(dir, "catalog.db"), E2E_SAMPLE_ITEMS: "200" });

/** Searches for each query as a browser would: its session cookie kept from the first answer. */
async function search(queries: string[]): Promise<void> {
  for (const q of queries) {
    const response = await fetch(`${portal.url}/crib-search/search?q=${q}`, { headers: cookie ? { Cookie: cookie } : {} });
    expect(response.status).toBe(200);
    cookie ||= response.headers.getSetCookie().find((c) => c.startsWith("crib-sid="))!.split(";")[0]!;
  }
}

/** How often each query's search signal has arrived at the stand-in. */
async function arrivals(prefix: string): Promise<Map<string, number>> {
  const received = (await (await fetch(`${standInUrl}/__control/signals`)).json()) as { signal: { type: string; params: { query?: string; session?: string } } }[];
  const counts = new Map<string, number>();
  for (const { signal } of received) {
    const q = signal.params.query ?? "";
    if (signal.type === "request" && q.startsWith(prefix)) counts.set(q, (counts.get(q) ?? 0) + 1);
  }
  return counts;
}

/** Waits until every query has arrived; then each must have arrived exactly once. */
async function expectDeliveredOnce(queries: string[], prefix: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  let counts = await arrivals(prefix);
  while (queries.some((q) => !counts.has(q)) && Date.now() < deadline) {
    await sleep(250);
    counts = await arrivals(prefix);
  }
  expect(Object.fromEntries(counts)).toEqual(Object.fromEntries(queries.map((q) => [q, 1])));
}

async function searchesOnAnalytics(): Promise<number> {
  const csv = await (await fetch(`${portal.url}/analytics/export.csv?days=7&table=top`)).text();
  return csv.split("\r\n").filter((line) => line.includes("outbox")).length;
}

beforeAll(async () => {
  await startSupervisor();
  portal = await startPortal(portalEnv());
}, 300_000);

afterAll(async () => {
  await portal?.stop();
  if (supervisor && supervisor.exitCode === null) {
    const exited = new Promise((resolve) => supervisor.once("exit", resolve));
    supervisor.kill("SIGTERM");
    await exited;
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the signals outbox", () => {
  it("delivers searches made while Fusion is killed once it is back, each exactly once, with the session", async () => {
    const before = ["outbox-a1", "outbox-a2", "outbox-a3"];
    await search(before);
    await expectDeliveredOnce(before, "outbox-a");

    await control("kill");
    const during = Array.from({ length: 12 }, (_, i) => `outbox-b${i}`);
    await search(during);
    await control("start");
    await expectDeliveredOnce(during, "outbox-b");
    // The stand-in forgets what it received when killed: what was delivered before is not sent again.
    expect((await arrivals("outbox-a")).size).toBe(0);
    const received = (await (await fetch(`${standInUrl}/__control/signals`)).json()) as { collection: string; signal: { params: { session?: string } } }[];
    expect(received.at(-1)).toMatchObject({ collection: "parts", signal: { params: { session: cookie.slice("crib-sid=".length, "crib-sid=".length + 22) } } });
  }, 120_000);

  it("keeps what the portal recorded across its own restart while Fusion was down, and sends it once", async () => {
    await control("kill");
    const during = Array.from({ length: 5 }, (_, i) => `outbox-c${i}`);
    await search(during);
    await portal.stop();
    await control("start");
    portal = await startPortal(portalEnv());
    await expectDeliveredOnce(during, "outbox-c");
    // Every search of this file counted once on /analytics too.
    expect(await searchesOnAnalytics()).toBe(3 + 12 + 5);
  }, 240_000);

  it("sends the session of the cookie the portal made: a client's own x-crib-fresh-session and x-crib-client headers name none", async () => {
    const named = "AAAAAAAAAAAAAAAAAAAAAA";
    const query = "forged-session-1";
    const response = await fetch(`${portal.url}/crib-search/search?q=${query}`, { headers: { "x-crib-fresh-session": named, "x-crib-client": "198.51.100.9" } });
    expect(response.status).toBe(200);
    const made = /^crib-sid=([\w-]{22})\./.exec(response.headers.getSetCookie().find((c) => c.startsWith("crib-sid=")) ?? "")?.[1];
    expect(made, "the signals cookie of a first visit").toBeDefined();
    await expectDeliveredOnce([query], "forged-session");
    const received = (await (await fetch(`${standInUrl}/__control/signals`)).json()) as { signal: { params: { query?: string; session?: string } } }[];
    expect(received.find((r) => r.signal.params.query === query)?.signal.params.session).toBe(made);
  }, 120_000);
});
