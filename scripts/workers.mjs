/**
 * The primary process of the server cluster (scripts/serve.mjs): starts `count` workers running
 * `exec`, the first one alone (it may create the sample catalogue the others then open), replaces a
 * worker that dies, and stops everything on SIGINT/SIGTERM or when a worker dies while starting.
 */
import cluster from "node:cluster";
import os from "node:os";

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
  console.log(`Starting ${count} server workers`);
  fork();
}
