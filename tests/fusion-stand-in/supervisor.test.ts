import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildSampleCatalog } from "../../app/search/engines/embedded/catalog-build.server";
import { freePort } from "../processes";

// Real processes on a shared 2-core machine: generous limits, no timing assertions.
const STARTUP_MS = 120_000;
const STEP_MS = 60_000;
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fusion-supervisor-"));
const catalogPath = path.join(dir, "catalog.db");
let supervisor: ChildProcess | undefined;
let output = "";
let standInUrl: string;
let controlUrl: string;
/** Every stand-in pid seen, so afterAll can make sure none is left behind. */
const pids = new Set<number>();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function control(method: "GET" | "POST", endpoint: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${controlUrl}${endpoint}`, { method });
  const body = await response.json();
  if (typeof body?.pid === "number") pids.add(body.pid);
  return { status: response.status, body };
}

/** What a request to the stand-in's port ends in: "ok" or the connection error's code. */
async function standIn(): Promise<string> {
  try {
    const response = await fetch(`${standInUrl}/api`, { signal: AbortSignal.timeout(5000) });
    return response.ok ? "ok" : `HTTP ${response.status}`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return cause?.code ?? String(error);
  }
}

function running(child: ChildProcess | undefined): child is ChildProcess {
  return child !== undefined && child.exitCode === null && child.signalCode === null;
}

/** Starts a supervisor on ports of its own and waits until its stand-in answers. */
async function startSupervisor(): Promise<void> {
  const [port, controlPort] = [await freePort(), await freePort()];
  standInUrl = `http://127.0.0.1:${port}`;
  controlUrl = `http://127.0.0.1:${controlPort}`;
  output = "";
  // Node itself with tsx's loader, so the pid is the supervisor's and signals reach it directly.
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "tests/fusion-stand-in/supervisor.ts", "--port", String(port), "--control-port", String(controlPort), "--catalog", catalogPath],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  supervisor = child;
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  const deadline = Date.now() + STARTUP_MS;
  while ((await standIn()) !== "ok") {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`The supervisor did not start the stand-in:\n${output}`);
    await sleep(200);
  }
}

beforeAll(() => buildSampleCatalog(catalogPath, { items: 300 }));

// Every test starts from a running supervisor with its stand-in up, whatever the test before it
// did (killed the stand-in, ended the supervisor), so each can run alone and in any order.
beforeEach(async () => {
  if (!running(supervisor)) return startSupervisor();
  expect((await control("POST", "/start")).body.running).toBe(true);
}, STARTUP_MS + 10_000);

afterAll(async () => {
  if (running(supervisor)) supervisor.kill("SIGKILL");
  for (const pid of pids) if (processExists(pid)) process.kill(pid, "SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("stand-in supervisor", () => {
  it("reports the running stand-in", async () => {
    const { status, body } = await control("GET", "/status");
    expect(status).toBe(200);
    expect(body).toEqual({ running: true, pid: expect.any(Number) });
    expect(processExists(body.pid)).toBe(true);
    expect((await control("GET", "/nowhere")).status).toBe(404);
    expect((await control("GET", "/kill")).status).toBe(405);
  });

  it(
    "kill ends the stand-in's process and its port refuses connections; killing again is fine",
    async () => {
      const { pid } = (await control("GET", "/status")).body;
      expect(await control("POST", "/kill")).toEqual({ status: 200, body: { running: false } });
      expect(processExists(pid)).toBe(false);
      expect(await standIn()).toBe("ECONNREFUSED");
      expect((await control("GET", "/status")).body).toEqual({ running: false, pid: null });
      expect(await control("POST", "/kill")).toEqual({ status: 200, body: { running: false } });
    },
    STEP_MS,
  );

  it(
    "start brings a new stand-in up on the same port; starting again keeps it",
    async () => {
      const before = (await control("GET", "/status")).body.pid;
      await control("POST", "/kill");
      expect(await standIn()).toBe("ECONNREFUSED");
      const started = await control("POST", "/start");
      expect(started).toEqual({ status: 200, body: { running: true, pid: expect.any(Number) } });
      expect(started.body.pid).not.toBe(before);
      expect(await standIn()).toBe("ok");
      expect(await control("POST", "/start")).toEqual(started);
      expect((await control("GET", "/status")).body).toEqual(started.body);
    },
    STEP_MS,
  );

  it(
    "SIGTERM ends the supervisor and leaves no stand-in behind",
    async () => {
      const { pid } = (await control("GET", "/status")).body;
      const child = supervisor!;
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(processExists(pid)).toBe(false);
      expect(await standIn()).toBe("ECONNREFUSED");
    },
    STEP_MS,
  );
});
