import { parse } from "cookie";
import { getConfig } from "~/config.server";
import { configureLog, log, routeConsoleToLog } from "~/lib/log.server";
import { scrape } from "~/lib/metrics.server";
import { RateLimits } from "~/lib/rate-limits.server";
import { inTrace, traceOf, type Trace } from "~/lib/trace.server";
import { prepareServices, services } from "~/registry.server";
import { HOME_PATH } from "~/search/paths";
import { requestIdFrom } from "./http.server";
import { chargesOf, createEnvelope, crossSiteAllowance, overLimit, refusalResponse, type EnvelopeRequest, type LimitKind, type Verdict } from "./envelope.server";
import { recordRequest, type RequestRecord } from "./operations.server";
import { beginDrain, markPrepared, startProbes } from "./probes.server";
import { problemPage } from "./problem-page.server";
import { signalSession } from "./page-signals.server";

/** Whose a session cookie is, remembered a minute: a session's user never changes, and the limits need not ask the store on every request. */
class SessionUsers {
  private readonly known = new Map<string, { user: string | null; at: number }>();

  constructor(
    /** The sign-in cookie's name (`crib-session`, `__Host-crib-session` on HTTPS). */
    private readonly name: string,
    private readonly lookUp: (cookie: string) => Promise<string | null>,
  ) {}

  async of(cookie: string | undefined): Promise<string | null> {
    if (!cookie) return null;
    const value = parse(cookie)[this.name];
    if (!value) return null;
    const now = Date.now();
    const hit = this.known.get(value);
    if (hit && now - hit.at < 60_000) return hit.user;
    const user = await this.lookUp(cookie).catch(() => null);
    if (this.known.size >= 10_000) this.known.clear();
    this.known.set(value, { user, at: now });
    return user;
  }
}

/**
 * The envelope of this configuration, for scripts/server.mjs (which reaches it through the
 * server build's entry module): `check` decides and gives the headers and nonce, counting the
 * request against its rate limits; `refuse` makes the answer to a refused request; `prepare`,
 * `drain` and `close` are the server's start and graceful stop.
 */
export function serverEnvelope() {
  const config = getConfig();
  configureLog({ replica: config.replicaId, ...config.log });
  // This is the server: whatever prints to the console goes into the log, one JSON line an entry.
  routeConsoleToLog();
  const { auth, shared } = services();
  const verdictOf = createEnvelope({
    appUrl: config.appUrl,
    formTargets: config.sso ? [new URL(config.sso.issuer).origin] : [],
    imageHosts: config.imageHosts,
    embed: { origins: config.embedOrigins },
  });
  const { requestsPerMinute, signInsPerMinute, beaconsPerMinute } = config.rateLimits;
  const limits = new RateLimits<LimitKind>(
    { requests: requestsPerMinute, signIns: signInsPerMinute, crossSiteSignIns: crossSiteAllowance(signInsPerMinute), beacons: beaconsPerMinute },
    shared ?? undefined,
    // The flood guard of every request is each replica's (a client behind a round-robin balancer
    // gets about that many times the allowance); sign-ins and beacons count once for all.
    { perReplica: ["requests"] },
  );
  const users = auth ? new SessionUsers(auth.sessionCookie.name, (cookie) => auth.userIdOf(cookie)) : null;

  return {
    /** Express's `trust proxy`: which proxies' X-Forwarded-For names the client. */
    trustProxy: config.trustProxy,
    shutdownDrainMs: config.shutdownDrainMs,
    replicaId: config.replicaId,
    /** The log (log.server.ts), for the server's own lines. */
    log,
    /** Where /metrics is served: "portal" (this server's port), "off", or a listener of its own. */
    metricsListen: config.metricsListen,
    /** A request's id (its X-Request-ID when sane, else a new one) and trace (its traceparent when valid, else a new one). */
    begin(headers: EnvelopeRequest["headers"]): { requestId: string; trace: Trace } {
      const one = (name: string) => {
        const value = headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      return { requestId: requestIdFrom(one("x-request-id")), trace: traceOf(one("traceparent")) };
    },
    /** Runs the rest of a request's handling in its trace: calls it makes to Fusion and the identity provider carry it. */
    inTrace,
    /** The log line and the metrics of an answered request. */
    record: (record: RequestRecord) => recordRequest(record),
    /** The metrics of this process, in Prometheus's text format. */
    metrics: scrape,
    async check(request: EnvelopeRequest): Promise<Verdict> {
      const verdict = verdictOf(request);
      if (verdict.refusal || verdict.charges.length === 0) return verdict;
      const cookie = request.headers.cookie;
      const user = users ? await users.of(Array.isArray(cookie) ? cookie.join("; ") : cookie) : null;
      const refusal = await limits.take(user ? chargesOf({ ...request, user }) : verdict.charges);
      return { ...(refusal ? overLimit(verdict, refusal.kind, refusal.retryAfterSeconds) : verdict), user };
    },
    /**
     * What the app is handed with a request the envelope let through, for the load context: the
     * request's sign-in (looked up once, when a loader first asks), the visitor's usage-signals
     * session, its cookie read once here (signals.server.ts), and the signals cookie of a first visit.
     */
    admit(headers: EnvelopeRequest["headers"], client: string) {
      const cookie = Array.isArray(headers.cookie) ? headers.cookie.join("; ") : headers.cookie;
      const { session, setCookie } = signalSession(cookie, client);
      return { identity: auth?.identityOf(cookie ?? null), signals: session, setCookie };
    },
    refuse(request: EnvelopeRequest, verdict: Verdict, requestId: string): Response {
      return refusalResponse(request, verdict, requestId, (message, status) => problemPage(message, status, { backHref: HOME_PATH }));
    },
    /**
     * At start-up: the probes' background refresh, and the shared store's tables and keys, which
     * are made in the background for as long as PostgreSQL takes to answer: the server listens
     * meanwhile, and readiness says whether it may be sent people (probes.server.ts).
     */
    prepare(): void {
      startProbes();
      void prepareServices(services()).then(markPrepared);
    },
    /** Readiness answers 503 from now on. */
    drain: beginDrain,
    /** After the last request: the signals outbox sent to Fusion for at most `outboxMs`, then every store closed. */
    async close(outboxMs: number): Promise<void> {
      const s = services();
      await s.signals.drain(outboxMs);
      await s.close();
    },
  };
}
