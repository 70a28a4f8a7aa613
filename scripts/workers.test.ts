import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { alive, freePort } from "../tests/processes";

const PRIMARY = "scripts/fixtures/fake-primary.mjs";

/** The body of a GET on a connection of its own. */
function get(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path, agent: false }, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk));
        res.on("end", () => resolve(body));
      })
      .on("error", reject);
  });
}

/** The pid of the worker that answers, on a connection of its own. */
async function workerPid(port: number, path = "/"): Promise<number> {
  return Number(await get(port, path));
}

async function until<T>(probe: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = await probe();
      if (ok(value)) return value;
    } catch {
      // not there yet
    }
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 100));
  }
}

let primary: ChildProcess | null = null;
afterEach(() => {
  if (primary && primary.exitCode === null) primary.kill("SIGKILL");
  primary = null;
});

/** The pids of the two workers behind `port`, once both have answered. */
async function bothWorkers(port: number): Promise<Set<number>> {
  const pids = new Set<number>();
  await until(
    async () => pids.add(await workerPid(port)),
    () => pids.size === 2,
  );
  return pids;
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once("exit", (code) => resolve(code))));
}

describe("the server's worker processes", () => {
  it("share one port, replace a worker that dies, and all stop on SIGTERM", async () => {
    const port = await freePort();
    primary = spawn(process.execPath, [PRIMARY], { env: { ...process.env, PORT: String(port), WEB_CONCURRENCY: "2" }, stdio: "pipe" });
    const before = await bothWorkers(port);

    const crashed = await workerPid(port, "/crash");
    expect(before.has(crashed)).toBe(true);
    await until(() => Promise.resolve(alive(crashed)), (up) => !up);
    const after = await bothWorkers(port);
    expect(after.has(crashed)).toBe(false);

    primary.kill("SIGTERM");
    expect(await exited(primary)).toBe(0);
    for (const pid of after) expect(alive(pid)).toBe(false);
  }, 30_000);

  it("stops with the worker's exit code when a worker dies while starting", async () => {
    const port = await freePort();
    primary = spawn(process.execPath, [PRIMARY], {
      env: { ...process.env, PORT: String(port), WEB_CONCURRENCY: "2", FAIL_AT_START: "1" },
      stdio: "pipe",
    });
    let stderr = "";
    primary.stderr!.on("data", (chunk: Buffer) => (stderr += chunk));
    expect(await exited(primary)).toBe(3);
    expect(stderr).toMatch(/stopped while starting \(exit code 3\); stopping/);
  }, 30_000);

  it.each(["abc", "0", "65", "1.5"])("refuses WEB_CONCURRENCY=%s with a message naming it", (value) => {
    const result = spawnSync(process.execPath, ["scripts/serve.mjs", "build/index.js"], {
      env: { ...process.env, WEB_CONCURRENCY: value },
      encoding: "utf8",
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`WEB_CONCURRENCY must be a whole number from 1 to 64, got "${value}"`);
  });
});
