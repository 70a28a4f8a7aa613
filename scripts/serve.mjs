#!/usr/bin/env node
/**
 * Serves a production build with remix-serve, one worker process per core:
 *
 *   node scripts/serve.mjs build/index.js
 *
 * A Node process renders one page at a time, so a single process leaves every other core idle.
 * WEB_CONCURRENCY sets the number of workers (default: the cores this process may use; 1 runs
 * remix-serve in this process, without a cluster). The workers share the port; the portal keeps no
 * state between requests apart from each worker's circuit breaker for Fusion, which each worker
 * keeps for itself, as replicas on other machines would.
 *
 * The first worker starts alone, so that it creates the sample catalogue (when there is none) before
 * the others open it. A worker that dies is replaced; one that dies while starting (a bad setting,
 * say) stops the whole server with its exit code, since its successors would die the same way.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { runWorkers, workerCount } from "./workers.mjs";

const serveCli = createRequire(import.meta.url).resolve("@remix-run/serve/dist/cli.js");
const buildPath = process.argv[2];
if (!buildPath) {
  console.error("Usage: node scripts/serve.mjs <server-build-path>, e.g. node scripts/serve.mjs build/index.js");
  process.exit(2);
}

const workers = workerCount(process.env.WEB_CONCURRENCY);
if (workers === 1) {
  // remix-serve reads the build path from argv[2], which is already ours.
  await import(serveCli);
} else {
  // Without PORT remix-serve would look for a free port in each worker; they must share one.
  process.env.PORT ||= "3000";
  runWorkers({ exec: serveCli, args: [path.resolve(buildPath)], count: workers });
}
