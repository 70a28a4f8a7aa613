import { log } from "~/lib/log.server";
import { metrics, observe } from "~/lib/metrics.server";
import { builtServices } from "~/registry.server";
import { canonicalPath, type RefusalReason } from "./envelope.server";

/**
 * What an operator sees of each request: one log line (JSON, log.server.ts) and its place in the
 * metrics (metrics.server.ts), by the kind of route it reached rather than its address, so that
 * the metrics' labels stay few whatever people search for.
 */

const KINDS: [RegExp, string][] = [
  [/^\/build\/|^\/favicon\./, "asset"],
  [/^\/api\/(health|ready)\/?$/, "probe"],
  [/^\/metrics\/?$/, "metrics"],
  [/^\/api\/signals\/?$/, "signals"],
  [/^\/api\//, "api"],
  [/\/export\.csv$|^\/crib-search\/pick-list/, "export"],
  [/^\/crib-search\/search\/?$|^\/search\/?$/, "search"],
  [/^\/(crib-search\/?)?$/, "home"],
  [/^\/product\//, "item"],
  [/^\/(bom|asset-bom|pm-bom|boms)\//, "bom"],
  [/^\/where-used\//, "where-used"],
  [/^\/(login|callback|logout|backchannel-logout)\/?$/, "sign-in"],
  [/^\/embed/, "embed"],
  [/^\/analytics\/?$/, "analytics"],
  [/^\/(theme|lite)\/?$/, "preferences"],
  [/^\/(debug|okta-debug|support)\/?$/, "page"],
];

/** The kind of route a path reaches: `search`, `item`, `export`, `api`, … or `other`. */
export function routeKindOf(url: string): string {
  const path = canonicalPath(url);
  return KINDS.find(([pattern]) => pattern.test(path))?.[1] ?? "other";
}

export interface RequestRecord {
  requestId: string;
  traceId: string;
  method: string;
  /** Path and query as sent; the log keeps the path. */
  url: string;
  status: number;
  seconds: number;
  /** The client's address as the envelope resolved it (TRUST_PROXY). */
  client: string;
  /** The signed-in user's id, when the session names one. */
  user?: string | null;
  /** Why the envelope refused it, when it did. */
  refusal?: RefusalReason;
  /** The client went away before its answer was complete. */
  aborted?: boolean;
}

/** Probes (every second from each balancer) and scrapes go in the metrics, and in the log at debug. */
const QUIET = new Set(["probe", "metrics"]);

/** One line in the log and one observation in the metrics for an answered (or abandoned) request. */
export function recordRequest(record: RequestRecord): void {
  const route = routeKindOf(record.url);
  const method = record.method.toUpperCase();
  metrics.requests.observe({ route, method, status: String(record.status) }, record.seconds);
  if (record.refusal) metrics.refusals.inc({ reason: record.refusal });
  const entry = {
    requestId: record.requestId,
    traceId: record.traceId,
    method,
    route,
    // What the user typed stays out of the log: the path names the page, its query may be anything.
    path: record.url.split("?", 1)[0]!.slice(0, 300),
    status: record.status,
    ms: Math.round(record.seconds * 10_000) / 10,
    client: record.client,
    ...(record.user ? { user: record.user } : {}),
    ...(record.refusal ? { refusal: record.refusal } : {}),
    ...(record.aborted ? { aborted: true } : {}),
  };
  // A probe's 503 is its answer (not ready), not a failure: the state changes are logged where they happen.
  if (QUIET.has(route)) log.debug(entry, "request");
  else if (record.status >= 500) log.error(entry, "request");
  else if (record.refusal) log.warn(entry, "request refused");
  else log.info(entry, "request");
}

const BREAKER = { closed: 0, "half-open": 1, open: 2 } as const;

/** The gauges of what the services keep, read when the metrics are scraped. */
observe(() => {
  const s = builtServices();
  if (!s) return;
  if (s.config.fusion) metrics.breakerState.set({ engine: "fusion" }, BREAKER[s.search.breaker.state]);
  const pending = s.signals.store.pendingCount();
  const oldest = pending ? s.signals.store.oldestPendingAt() : null;
  metrics.signalsBacklog.set(pending);
  metrics.signalsOldest.set(oldest === null ? 0 : Math.max(0, (Date.now() - oldest) / 1000));
  if (s.shared) {
    metrics.poolConnections.set({ state: "total" }, s.shared.totalCount);
    metrics.poolConnections.set({ state: "idle" }, s.shared.idleCount);
    metrics.poolConnections.set({ state: "waiting" }, s.shared.waitingCount);
  }
  if (s.catalogue) {
    const { items, builtAt } = s.catalogue.open();
    metrics.catalogueItems.set(items);
    if (builtAt) metrics.catalogueBuilt.set(Date.parse(builtAt) / 1000);
  }
});
