import { randomUUID } from "node:crypto";
import { REQUEST_TOKEN_HEADER } from "~/auth/auth.server";
import { getConfig } from "~/config.server";
import { RateLimits } from "~/lib/rate-limits.server";
import { prepareServices, services } from "~/registry.server";
import { HOME_PATH } from "~/search/paths";
import { requestIdOf } from "./http.server";
import { chargesOf, createEnvelope, crossSiteAllowance, overLimit, refusalResponse, type EnvelopeRequest, type LimitKind, type Verdict } from "./envelope.server";
import { beginDrain, markPrepared, startProbes } from "./probes.server";
import { problemPage } from "./problem-page.server";
import { signalSession } from "./signals.server";

/** Whose a session cookie is, remembered a minute: a session's user never changes, and the limits need not ask the store on every request. */
class SessionUsers {
  private readonly known = new Map<string, { user: string | null; at: number }>();

  constructor(private readonly lookUp: (cookie: string) => Promise<string | null>) {}

  async of(cookie: string | undefined): Promise<string | null> {
    if (!cookie || !/crib-session=/.test(cookie)) return null;
    const value = /(?:^|;\s*)(?:__Host-)?crib-session=([^;]*)/.exec(cookie)?.[1];
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
  const users = auth ? new SessionUsers((cookie) => auth.userIdOf(cookie)) : null;

  return {
    /** Express's `trust proxy`: which proxies' X-Forwarded-For names the client. */
    trustProxy: config.trustProxy,
    shutdownDrainMs: config.shutdownDrainMs,
    replicaId: config.replicaId,
    async check(request: EnvelopeRequest): Promise<Verdict> {
      // Only this server names a request's token (admit below); a client's is dropped.
      delete request.headers[REQUEST_TOKEN_HEADER];
      const verdict = verdictOf(request);
      if (verdict.refusal || verdict.charges.length === 0) return verdict;
      const cookie = request.headers.cookie;
      const user = users ? await users.of(Array.isArray(cookie) ? cookie.join("; ") : cookie) : null;
      const refusal = await limits.take(user ? chargesOf({ ...request, user }) : verdict.charges);
      return refusal ? overLimit(verdict, refusal.kind, refusal.retryAfterSeconds) : verdict;
    },
    /**
     * What the app is handed with a request the envelope let through: the request's own token (a
     * header, which auth reads), the visitor's usage-signals session for the load context, its
     * cookie read once here (signals.server.ts), and the signals cookie of a first visit.
     */
    admit(headers: EnvelopeRequest["headers"], client: string) {
      const cookie = Array.isArray(headers.cookie) ? headers.cookie.join("; ") : headers.cookie;
      const { session, setCookie } = signalSession(cookie, client);
      return { requestHeaders: { [REQUEST_TOKEN_HEADER]: randomUUID() }, signals: session, setCookie };
    },
    refuse(request: EnvelopeRequest, verdict: Verdict): Response {
      const requestId = requestIdOf(new Request("http://portal.invalid/", { headers: { "x-request-id": String(request.headers["x-request-id"] ?? "") } }));
      return refusalResponse(request, verdict, requestId, (message, status) => problemPage(message, status, { backHref: HOME_PATH }));
    },
    /** Before listening: the shared store's tables and keys; the probes' background refresh. */
    async prepare(): Promise<void> {
      await prepareServices(services());
      markPrepared();
      startProbes();
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
