/**
 * `npm start` stopped as a service manager stops it: SIGTERM to its whole process group (systemd's
 * KillMode=control-group, `kill -- -PGID`), sent twice, with two workers; and SIGTERM to npm
 * alone. Each time the portal drains as one server does (readiness 503 at once, pages still
 * answered for SHUTDOWN_DRAIN_MS), then every process of it ends: no orphan serves on.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../processes";
import { request, ROOT, waitFor } from "./rig";

const DRAIN_MS = 2500;
/** What each server process logs when a signal starts its drain (scripts/server.mjs). */
const STOPPING = "stopping: not ready, still serving while the balancer notices";
let started: { npm: ChildProcess; dir: string } | null = null;

/** The pids of a process group still running. */
function groupMembers(pgid: number): number[] {
  const out = spawnSync("pgrep", ["-g", String(pgid)], { encoding: "utf8" }).stdout;
  return out.split("\n").filter(Boolean).map(Number);
}

async function startNpm(env: Record<string, string>): Promise<{ npm: ChildProcess; url: string; output: () => string }> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crib-stop-"));
  let output = "";
  // A process group of its own, as a service manager gives a service.
  const npm = spawn("npm", ["start"], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { NODE_ENV: "production", PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? os.tmpdir(), PORT: String(port), HOST: "127.0.0.1", CATALOG_DB: path.join(dir, "catalog.db"), SAMPLE_ITEMS: "300", SHUTDOWN_DRAIN_MS: String(DRAIN_MS), RATE_LIMIT_PER_MINUTE: "0", ...env },
  });
  npm.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  npm.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  started = { npm, dir };
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await request(`${url}/api/ready`).catch(() => null))?.status === 200, 120_000, () => `npm start did not serve:\n${output}`);
  return { npm, url, output: () => output };
}

afterEach(() => {
  if (!started) return;
  for (const pid of groupMembers(started.npm.pid!)) process.kill(pid, "SIGKILL");
  fs.rmSync(started.dir, { recursive: true, force: true });
  started = null;
});

/** How many lines of the log carry the message `msg`. */
const logged = (output: string, msg: string) => output.split("\n").filter((line) => line.includes(`"msg":"${msg}"`)).length;

/**
 * What a page and readiness answer, every 100 ms, until the portal stops answering at all; `at`
 * is in milliseconds since `began`.
 */
async function watch(url: string, began: number, until: number) {
  const seen: { at: number; page: number; ready: number }[] = [];
  while (Date.now() < until) {
    const [page, ready] = await Promise.all([request(`${url}/crib-search`, { timeoutMs: 5000 }).then((a) => a.status, () => 0), request(`${url}/api/ready`, { timeoutMs: 5000 }).then((a) => a.status, () => 0)]);
    seen.push({ at: Date.now() - began, page, ready });
    if (page === 0 && ready === 0) break;
    await sleep(100);
  }
  return seen;
}

describe("npm start, stopped", () => {
  it("drains two workers as one server when its whole process group gets SIGTERM twice, then leaves no process", async () => {
    const { npm, url, output } = await startNpm({ WEB_CONCURRENCY: "2" });
    const pgid = npm.pid!;
    // Both workers serving, not one of them still starting.
    await waitFor(async () => logged(output(), "listening") >= 2, 120_000, () => `two workers did not start:\n${output()}`);
    expect(groupMembers(pgid).length).toBeGreaterThanOrEqual(4);
    const exited = new Promise<number | null>((resolve) => npm.once("exit", (code) => resolve(code)));
    const signalled = Date.now();
    process.kill(-pgid, "SIGTERM");
    // The second signal once both workers have said they are stopping (and so are draining).
    await waitFor(async () => logged(output(), STOPPING) >= 2, 20_000, () => `the workers did not say they were stopping:\n${output()}`);
    process.kill(-pgid, "SIGTERM");
    const seen = await watch(url, signalled, Date.now() + DRAIN_MS + 15_000);
    const draining = seen.filter((s) => s.at < DRAIN_MS - 500);
    console.log(`[stop, group SIGTERM twice, 2 workers] ${seen.length} probes: first refusal at ${seen.find((s) => s.page === 0)?.at ?? "never"} ms, drain ${DRAIN_MS} ms`);
    // While it drains: not ready, and every page still answered.
    expect(draining.length).toBeGreaterThan(5);
    expect(draining.every((s) => s.page === 200), JSON.stringify(draining)).toBe(true);
    expect(draining.every((s) => s.ready === 503), JSON.stringify(draining)).toBe(true);
    await exited;
    // The second signal did not shorten the drain: each worker said so.
    expect(logged(output(), "already stopping")).toBeGreaterThanOrEqual(2);
    await waitFor(async () => groupMembers(pgid).length === 0, 20_000, () => `processes left: ${groupMembers(pgid).join(", ")}`);
  });

  it("stops the server when npm alone gets SIGTERM, rather than leaving it to serve on unmanaged", async () => {
    const { npm, url } = await startNpm({ WEB_CONCURRENCY: "1" });
    const pgid = npm.pid!;
    npm.kill("SIGTERM");
    const seen = await watch(url, Date.now(), Date.now() + DRAIN_MS + 15_000);
    console.log(`[stop, SIGTERM to npm alone] first refusal at ${seen.find((s) => s.page === 0)?.at ?? "never"} ms, drain ${DRAIN_MS} ms`);
    expect(seen.some((s) => s.ready === 503 && s.page === 200)).toBe(true);
    await waitFor(async () => groupMembers(pgid).length === 0, 20_000, () => `processes left: ${groupMembers(pgid).join(", ")}`);
    expect((await request(`${url}/api/ready`).catch(() => null))?.status).toBeUndefined();
  });
});
