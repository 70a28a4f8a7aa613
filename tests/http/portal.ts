/**
 * A test portal of a test's own: the production build (scripts/e2e-server.mjs) on a free port with
 * the settings the test needs (sign-in, limits, debug pages), stopped by the test afterwards.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../processes";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** The first start builds the sample catalogue. */
const READY_TIMEOUT_MS = 150_000;

export interface TestPortal {
  url: string;
  stop(): Promise<void>;
  /** What the server has printed so far (its log). */
  output(): string;
}

/** Starts a portal with `env` (E2E_* settings as scripts/e2e-server.mjs reads them) and waits until it is ready. */
export async function startPortal(env: Record<string, string>, port?: number): Promise<TestPortal> {
  port ??= await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = "";
  // Its own process group, so that stopping it stops the server it starts too.
  const server = spawn(process.execPath, ["scripts/e2e-server.mjs"], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", WEB_CONCURRENCY: "1", E2E_SAMPLE_ITEMS: "200", ...env },
  });
  server.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  server.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  const stop = async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((resolve) => server.once("exit", resolve));
    process.kill(-server.pid!, "SIGTERM");
    await exited;
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`The test portal exited with ${server.exitCode}:\n${output}`);
    const ready = await fetch(`${url}/api/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return { url, stop, output: () => output };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The test portal was not ready at ${url}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A catalogue file of the HTTP suite's cache. */
export function cacheDb(name: string): string {
  return path.join(ROOT, ".cache/http", name);
}
