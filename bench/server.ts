/** Starts the production build on a free port for a benchmark and stops it again. */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export interface RunningServer {
  url: string;
  process: ChildProcess;
  /** Peak resident memory of the server process so far (VmHWM), in bytes. */
  peakRss(): number;
  stop(): Promise<void>;
}

/** Serves the server build `serverBuild` (bench/build.ts) as `npm start` does, with `env`. */
export async function startServer(serverBuild: string, env: Record<string, string>): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.resolve("scripts/serve.mjs"), serverBuild], {
    // A benchmark is a flood from one client by design: no rate limits.
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", RATE_LIMIT_PER_MINUTE: "0", SIGN_IN_RATE_LIMIT_PER_MINUTE: "0", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      const response = await fetch(`${url}/api/ready`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error("server did not become ready");
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    process: child,
    peakRss() {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, "utf8");
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return kb * 1024;
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

export interface RunningStandIn {
  url: string;
  /** Sets the stand-in's fault (`{ kind: "fixed", ms: 100 }`, `{ kind: "hang" }`, …). */
  fault(body: unknown): Promise<Response>;
  stop(): void;
}

export interface RunningFloor {
  url: string;
  stop(): void;
}

/**
 * The benchmark harness without the portal (bench/harness-floor.ts, in a process of its own): it
 * sends `fusionQuery` to the stand-in for every request and answers with `page`.
 */
export async function startHarnessFloor(fusionQuery: string, page: Uint8Array): Promise<RunningFloor> {
  const port = await freePort();
  const pageFile = path.resolve("bench/out/harness-floor-page.html");
  fs.writeFileSync(pageFile, page);
  const child = spawn("npx", ["tsx", "bench/harness-floor.ts", String(port), fusionQuery, pageFile], {
    stdio: ["ignore", "pipe", "inherit"],
    detached: true,
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the harness floor server exited with ${code}`)));
  });
  child.stdout!.resume();
  return { url: `http://127.0.0.1:${port}`, stop: () => process.kill(-child.pid!, "SIGTERM") };
}

/** The Fusion stand-in over `catalog`, in a process of its own so that it shares no event loop with the load. */
export async function startStandIn(catalog: string): Promise<RunningStandIn> {
  const port = await freePort();
  const child = spawn("npx", ["tsx", "tests/fusion-stand-in/main.ts", "--port", String(port), "--catalog", catalog], {
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/api`)).ok) break;
    } catch {
      // starting
    }
    if (i > 300) throw new Error("stand-in did not start");
    await new Promise((r) => setTimeout(r, 200));
  }
  const fault = (body: unknown) =>
    fetch(`${url}/__control/fault`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return { url, fault, stop: () => process.kill(-child.pid!, "SIGTERM") };
}
