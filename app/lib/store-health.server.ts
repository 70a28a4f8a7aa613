import { log } from "./log.server";
import { metrics } from "./metrics.server";

/**
 * Whether each store the portal writes to (PostgreSQL, the SQLite files) is working, as its last
 * call found it: every failure is counted in the metrics, and logged once when a store starts
 * failing (with the error) and once when it works again, never once per request; /api/health
 * reports what is failing now.
 */
export type StoreKind = "postgres" | "sqlite";

interface Failing {
  store: StoreKind;
  use: string;
  since: string;
  detail: string;
  failures: number;
}

const failing = new Map<string, Failing>();

/** What an error says, without anything but its message and code (no query text, no values). */
export function errorDetail(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
}

/** A call to `store` for `use` (sessions, rate_limits, signals, …) failed. */
export function storeFailed(store: StoreKind, use: string, error: unknown): void {
  metrics.storeErrors.inc({ store, use });
  const key = `${store}:${use}`;
  const known = failing.get(key);
  if (known) {
    known.failures++;
    return;
  }
  failing.set(key, { store, use, since: new Date().toISOString(), detail: errorDetail(error), failures: 1 });
  log.error({ store, use, err: error }, "store failing");
}

/** A call to `store` for `use` worked: a failure it had is over. */
export function storeWorked(store: StoreKind, use: string): void {
  const key = `${store}:${use}`;
  const known = failing.get(key);
  if (!known) return;
  failing.delete(key);
  log.info({ store, use, since: known.since, failures: known.failures }, "store working again");
}

/** The stores failing now, for /api/health. */
export function failingStores(): Failing[] {
  return [...failing.values()];
}
