#!/usr/bin/env node
/**
 * Serves a production build with remix-serve, one worker process per core:
 *
 *   node scripts/serve.mjs build/index.js
 *
 * A Node process renders one page at a time, so a single process leaves every other core idle.
 * WEB_CONCURRENCY sets the number of workers (default: the cores this process may use; 1 runs
 * remix-serve in this process, without a cluster). The workers share the port; the portal keeps no
 * state between requests apart from each worker's own circuit breaker for Fusion.
 *
 * The first worker starts alone, so that it creates the sample catalogue (when there is none) before
 * the others open it. A worker that dies is replaced; one that dies while starting (a bad setting,
 * say) stops the whole server with its exit code, since its successors would die the same way.
 */
import cluster from "node:cluster";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

const serveCli = createRequire(import.meta.url).resolve("@remix-run/serve/dist/cli.js");
const buildPath = process.argv[2];
if (!buildPath) {
  console.error("Usage: node scripts/serve.mjs <server-build-path>, e.g. node scripts/serve.mjs build/index.js");
  process.exit(2);
}

function workerCount() {
  const raw = process.env.WEB_CONCURRENCY?.trim();
  if (!raw) return Math.max(1, os.availableParallelism());
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 64) {
    console.error(`Invalid configuration: WEB_CONCURRENCY must be a whole number from 1 to 64, got "${raw}"`);
    process.exit(1);
  }
  return Number(raw);
}

const workers = workerCount();

if (workers === 1) {
  // remix-serve reads the build path from argv[2], which is already ours.
  await import(serveCli);
} else {
  // Without PORT remix-serve would look for a free port in each worker; they must share one.
  process.env.PORT ||= "3000";
  cluster.setupPrimary({ exec: serveCli, args: [path.resolve(buildPath)] });
  let stopping = false;
  const listening = new Set();

  const fork = () => {
    const worker = cluster.fork();
    worker.once("listening", () => {
      listening.add(worker.id);
      // The first worker is up (and the catalogue with it): start the rest.
      if (listening.size === 1 && Object.keys(cluster.workers ?? {}).length < workers) {
        for (let i = 1; i < workers; i++) fork();
      }
    });
    worker.once("exit", (code, signal) => {
      const started = listening.delete(worker.id);
      if (stopping) return;
      if (!started) {
        console.error(`A server worker stopped while starting (${signal ?? `exit code ${code}`}); stopping.`);
        stopAll(code || 1);
        return;
      }
      console.error(`A server worker stopped (${signal ?? `exit code ${code}`}); starting a new one.`);
      fork();
    });
  };

  /** Each worker closes its server, finishes the requests it has, and exits. */
  const stopAll = (exitCode) => {
    stopping = true;
    const alive = Object.values(cluster.workers ?? {}).filter((w) => w && !w.isDead());
    if (alive.length === 0) process.exit(exitCode);
    let left = alive.length;
    for (const worker of alive) {
      worker.once("exit", () => {
        if (--left === 0) process.exit(exitCode);
      });
      worker.disconnect();
    }
    // Open keep-alive connections must not hold the server up for long; the workers end with us.
    setTimeout(() => process.exit(exitCode), 10_000).unref();
  };

  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stopAll(0));
  console.log(`Starting ${workers} server workers`);
  fork();
}
