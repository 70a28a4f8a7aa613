import cluster from "node:cluster";
import client from "prom-client";

/**
 * The portal's metrics in Prometheus's text format (prom-client), served at GET /metrics (or on a
 * listener of its own, METRICS_LISTEN). Every family is declared here, once, with its help text;
 * docs/operations.md ("Metrics") lists them. Gauges of state the portal already keeps (the breaker,
 * the outbox, the pool, the catalogue) are read when scraped, through `observe`.
 */
export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

const observers: (() => void)[] = [];
let readAt = 0;
/**
 * Reads the kept state into the gauges once per scrape (each state gauge calls it as it is
 * collected; the first does the reading). Collection runs for a scrape of this process and for
 * the cluster's primary asking its workers alike.
 */
function readState(): void {
  const now = Date.now();
  if (now - readAt < 100) return;
  readAt = now;
  for (const read of observers) {
    try {
      read();
    } catch {
      // A reading that fails leaves its gauges as they were: a scrape never fails for one.
    }
  }
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const metrics = {
  requests: new client.Histogram({
    name: "crib_http_request_duration_seconds",
    help: "HTTP requests answered, by route kind, method and status, and how long each took to its last byte.",
    labelNames: ["route", "method", "status"] as const,
    buckets: SECONDS,
    registers: [registry],
  }),
  refusals: new client.Counter({
    name: "crib_refusals_total",
    help: "Requests refused before the app: by reason (a rate limit's kind, method, url_too_long, cross_site, body_too_large, bad_host).",
    labelNames: ["reason"] as const,
    registers: [registry],
  }),
  fusion: new client.Histogram({
    name: "crib_fusion_request_duration_seconds",
    help: "Calls to Fusion by outcome (ok; timeout, unreachable, refused, unauthorized, forbidden, not-found, malformed, http_<status> ...) and their latency.",
    labelNames: ["outcome"] as const,
    buckets: SECONDS,
    registers: [registry],
  }),
  backupAnswers: new client.Counter({
    name: "crib_backup_answers_total",
    help: "Answers served from the backup (the embedded catalogue or product backend) instead of Fusion, by why (breaker_open, failed).",
    labelNames: ["why"] as const,
    registers: [registry],
  }),
  breakerState: new client.Gauge({
    name: "crib_fusion_breaker_state",
    collect: readState,
    aggregator: "max",
    help: "The circuit breaker in front of the search platform: 0 closed, 1 half-open, 2 open (absent without Fusion).",
    labelNames: ["engine"] as const,
    registers: [registry],
  }),
  signalsBacklog: new client.Gauge({
    name: "crib_signals_outbox_backlog",
    collect: readState,
    aggregator: "max",
    help: "Usage signals stored and not yet sent to Fusion.",
    registers: [registry],
  }),
  signalsOldest: new client.Gauge({
    name: "crib_signals_outbox_oldest_age_seconds",
    collect: readState,
    aggregator: "max",
    help: "Age of the oldest signal waiting to be sent (0 when none waits).",
    registers: [registry],
  }),
  storeErrors: new client.Counter({
    name: "crib_store_errors_total",
    help: "Failed calls to a store, by store (postgres, sqlite) and what was asked (sessions, rate_limits, signals, health).",
    labelNames: ["store", "use"] as const,
    registers: [registry],
  }),
  poolConnections: new client.Gauge({
    name: "crib_store_pool_connections",
    collect: readState,
    help: "The shared store's (PostgreSQL) connection pool: total, idle, and requests waiting for a connection.",
    labelNames: ["state"] as const,
    registers: [registry],
  }),
  storeUp: new client.Gauge({
    name: "crib_store_up",
    collect: readState,
    aggregator: "min",
    help: "Whether the shared store answered its last health check (1) or not (0); absent without one.",
    labelNames: ["store"] as const,
    registers: [registry],
  }),
  sessionsRenewed: new client.Counter({
    name: "crib_sessions_renewed_total",
    help: "Sign-in sessions whose tokens were renewed at the identity provider.",
    registers: [registry],
  }),
  sessionsEnded: new client.Counter({
    name: "crib_sessions_ended_total",
    help: "Sign-in sessions ended, by reason (logout, backchannel, refused, expired, idle).",
    labelNames: ["reason"] as const,
    registers: [registry],
  }),
  catalogueItems: new client.Gauge({
    name: "crib_catalogue_items",
    collect: readState,
    aggregator: "max",
    help: "Items in the embedded catalogue this replica serves (absent without one).",
    registers: [registry],
  }),
  catalogueBuilt: new client.Gauge({
    name: "crib_catalogue_built_timestamp_seconds",
    collect: readState,
    aggregator: "max",
    help: "When the embedded catalogue was built, in seconds since the epoch.",
    registers: [registry],
  }),
};

/** Adds a reading of kept state made just before each scrape (the breaker, the outbox, the pool). */
export function observe(read: () => void): void {
  observers.push(read);
}

/** The text of a scrape of this process. */
export async function scrape(): Promise<{ text: string; contentType: string }> {
  return { text: await registry.metrics(), contentType: registry.contentType };
}

// A worker of a cluster (scripts/workers.mjs) answers its primary's requests for these metrics,
// which the primary adds up with the other workers' into one scrape.
if (cluster.isWorker) {
  client.AggregatorRegistry.setRegistries([registry]);
  new client.AggregatorRegistry();
}
