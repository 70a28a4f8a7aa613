/**
 * Serves the production build (scripts/e2e-server.mjs, as the browser suite does) on a free port
 * for the HTTP suite, with a sample catalogue of its own, and stops it afterwards. The tests read
 * its address with `inject("baseUrl")`.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { freePort } from "../processes";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** The first start builds the sample catalogue. */
const READY_TIMEOUT_MS = 150_000;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!fs.existsSync(path.join(ROOT, "build/index.js"))) throw new Error("No production build: run `npx remix build` first.");
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = "";
  // Its own process group, so that stopping it stops the server it starts too.
  const server = spawn(process.execPath, ["scripts/e2e-server.mjs"], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      E2E_CATALOG_DB: path.join(ROOT, ".cache/http/catalog.db"),
      E2E_SAMPLE_ITEMS: "1000",
      WEB_CONCURRENCY: "1",
    },
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
    if (server.exitCode !== null) throw new Error(`The test server exited with ${server.exitCode}:\n${output}`);
    const ready = await fetch(`${baseUrl}/api/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The test server was not ready at ${baseUrl}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  project.provide("baseUrl", baseUrl);
  return stop;
}
