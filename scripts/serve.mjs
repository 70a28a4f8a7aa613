#!/usr/bin/env node
/**
 * Serves a production build (scripts/server.mjs), one worker process per core:
 *
 *   node scripts/serve.mjs build/index.js
 *
 * A Node process renders one page at a time, so a single process leaves every other core idle.
 * WEB_CONCURRENCY sets the number of workers (default: the cores this process may use; 1 serves
 * from this process, without a cluster). The workers share the port, the files beside the
 * catalogue (the signals outbox with its per-minute cap; the sessions, unless DATABASE_URL keeps
 * them in PostgreSQL) and the shared store when there is one. Each keeps for itself what a replica
 * on another machine would: its circuit breaker for Fusion, its caches, its flood guard's counts
 * (RATE_LIMIT_PER_MINUTE) and, without a shared store, its counts of the sign-in and beacon
 * allowances too. A scrape of /metrics answers for every worker, and a SIGTERM drains them all as
 * it drains one server.
 *
 * The first worker starts alone, so that it creates the sample catalogue (when there is none) before
 * the others open it. A worker that dies is replaced; one that dies while starting (a bad setting,
 * say) stops the whole server with its exit code, since its successors would die the same way.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runWorkers, workerCount } from "./workers.mjs";

const server = fileURLToPath(new URL("./server.mjs", import.meta.url));
const buildPath = process.argv[2];
if (!buildPath) {
  console.error("Usage: node scripts/serve.mjs <server-build-path>, e.g. node scripts/serve.mjs build/index.js");
  process.exit(2);
}

const workers = workerCount(process.env.WEB_CONCURRENCY);
if (workers === 1) {
  // The server reads the build path from argv[2], which is already ours.
  await import(server);
} else {
  process.env.PORT ||= "3000";
  runWorkers({ exec: server, args: [path.resolve(buildPath)], count: workers });
}
