/**
 * The primary process of the server cluster (scripts/serve.mjs): starts `count` workers running
 * `exec`, the first one alone (it may create the sample catalogue the others then open), replaces a
 * worker that dies, and stops everything on SIGINT/SIGTERM or when a worker dies while starting.
 */
import cluster from "node:cluster";
import os from "node:os";
import promClient from "prom-client";

/** WEB_CONCURRENCY as a worker count: default one per usable core; a bad value stops the server. */
export function workerCount(raw) {
  const text = raw?.trim();
  if (!text) return Math.max(1, os.availableParallelism());
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 64) {
    console.error(`Invalid configuration: WEB_CONCURRENCY must be a whole number from 1 to 64, got "${raw}"`);
    process.exit(1);
  }
  return Number(text);
}

/** SHUTDOWN_DRAIN_MS as the workers read it (they refuse a bad value at start). */
const drainMs = () => Number(process.env.SHUTDOWN_DRAIN_MS) || 0;

export function runWorkers({ exec, args, count }) {
  cluster.setupPrimary({ exec, args });
  let stopping = false;
  const listening = new Set();

  const fork = () => {
    const worker = cluster.fork();
    worker.once("listening", () => {
      listening.add(worker.id);
      // The first worker is up (and the catalogue with it): start the rest.
      if (listening.size === 1 && Object.keys(cluster.workers ?? {}).length < count) {
        for (let i = 1; i < count; i++) fork();
      }
    });
    worker.once("exit", (code, signal) => {
      const started = listening.delete(worker.id);
      if (stopping) return;
      const how = signal ?? `exit code ${code}`;
      if (!started) {
        // A bad setting, say: its successors would die the same way.
        console.error(`A server worker stopped while starting (${how}); stopping.`);
        stopAll(code || 1);
        return;
      }
      console.error(`A server worker stopped (${how}); starting a new one.`);
      fork();
    });
  };

  /**
   * Each worker stops as a single server does on SIGTERM (scripts/server.mjs: not ready, still
   * serving for SHUTDOWN_DRAIN_MS, then finishing what it has and sending its outbox), and this
   * process, which holds the shared port, waits for the last of them. Not `disconnect()`: that
   * closes a worker's server at once, with no drain. A repeated signal changes nothing.
   */
  const stopAll = (exitCode) => {
    if (stopping) return;
    stopping = true;
    const alive = Object.values(cluster.workers ?? {}).filter((w) => w && !w.isDead());
    if (alive.length === 0) process.exit(exitCode);
    let left = alive.length;
    for (const worker of alive) {
      worker.once("exit", () => {
        if (--left === 0) process.exit(exitCode);
      });
      worker.process.kill("SIGTERM");
    }
    // The drain, the in-flight bound (10 s) and the outbox's (5 s), and a margin: then the workers end with us.
    setTimeout(() => process.exit(exitCode), drainMs() + 20_000).unref();
  };

  // A scrape of any worker's /metrics answers for all of them: the primary adds up their metrics.
  const aggregator = new promClient.AggregatorRegistry();
  cluster.on("message", (worker, message) => {
    if (message?.type !== "crib:metrics") return;
    aggregator.clusterMetrics().then(
      (text) => worker.isConnected() && worker.send({ type: "crib:metrics-answer", id: message.id, text, contentType: aggregator.contentType }),
      (error) => worker.isConnected() && worker.send({ type: "crib:metrics-answer", id: message.id, error: error.message }),
    );
  });

  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stopAll(0));
  console.log(`Starting ${count} server workers`);
  fork();
}
