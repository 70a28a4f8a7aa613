import { randomBytes } from "node:crypto";
import { createCookie, type Cookie } from "@remix-run/node";
import { log } from "~/lib/log.server";
import { metrics } from "~/lib/metrics.server";
import { TokenRefusedError, type LogoutToken, type OidcClient } from "./oidc.server";
import type { SessionRecord, SessionStore, SessionTokens } from "./session-store.server";
import type { User } from "./user";

/** A signed-in visit: the session's id (from the cookie) and what the store holds for it. */
export interface Session {
  id: string;
  record: SessionRecord;
  /** Set-Cookie headers the answer must carry (a renewed session). */
  setCookies: string[];
}

export interface AuthOptions {
  appUrl: string;
  sessionSecret: string;
  secureCookies: boolean;
  /** A session ends this long after sign-in, whatever happens. */
  absoluteMs?: number;
  /** …or after this long without a request. */
  idleMs?: number;
  now?: () => number;
}

/**
 * One request's sign-in, looked up at most once however many of its loaders ask (the layout's, the
 * page's, a signal's): with a shared store a look-up is a round trip. scripts/server.mjs makes one
 * per request and hands it to the app in the load context (docs/decisions/046).
 */
export class RequestIdentity {
  private looked: Promise<Session | null> | undefined;

  constructor(private readonly lookUp: () => Promise<Session | null>) {}

  /** The request's session, renewed when its tokens are about to expire; null when there is none. */
  session(): Promise<Session | null> {
    return (this.looked ??= this.lookUp());
  }

  async user(): Promise<User | null> {
    return (await this.session())?.record.user ?? null;
  }

  /** The session was begun or ended by this request: a later ask looks it up again. */
  forget(): void {
    this.looked = undefined;
  }
}

const ABSOLUTE_MS = 12 * 60 * 60 * 1000;
const IDLE_MS = 60 * 60 * 1000;
/**
 * Tokens are renewed this long before they expire (spec: "expire early 60 s"), or a quarter of
 * their lifetime before when that is shorter: tokens of a minute or less would otherwise be due
 * from the moment they are issued, and every request would renew them.
 */
const RENEW_EARLY_MS = 60_000;
const RENEW_EARLY_FRACTION = 0.25;
/** After a renewal the provider did not answer, the next try waits this long; the session goes on. */
const RENEW_RETRY_MS = 5 * 60_000;
/** How often a request waiting for another process's renewal looks at the store. */
const RENEW_POLL_MS = 50;
/** `lastSeenAt` is written at most this often: a page of requests is one visit. */
const TOUCH_EVERY_MS = 60_000;

/**
 * Sessions on the server. The cookie holds a random id, signed with SESSION_SECRET; the store
 * holds the user and the tokens. Every sign-in gets a new id (no fixation), logout deletes the
 * record (so an old cookie never signs anyone in again), and a session ends after the portal's own
 * absolute and idle lifetimes, whatever the access token's, or when the provider refuses to renew
 * its tokens. A provider that gives no refresh token leaves the session to those lifetimes; one
 * that does not answer a renewal leaves it going until they end (docs/decisions/023).
 */
export class Auth {
  readonly sessionCookie: Cookie;
  /** Where the user was going when sign-in started: a same-site path, for five minutes. */
  readonly returnCookie: Cookie;
  private readonly absoluteMs: number;
  private readonly idleMs: number;
  private readonly now: () => number;
  /** Renewals under way in this process, by session id: its other requests wait for the same one. */
  private readonly renewals = new Map<string, Promise<SessionRecord | null>>();

  constructor(
    readonly oidc: OidcClient,
    private readonly store: SessionStore,
    readonly options: AuthOptions,
  ) {
    const prefix = options.secureCookies ? "__Host-" : "";
    const base = { httpOnly: true, sameSite: "lax" as const, secure: options.secureCookies, path: "/", secrets: [options.sessionSecret] };
    this.absoluteMs = options.absoluteMs ?? ABSOLUTE_MS;
    this.idleMs = options.idleMs ?? IDLE_MS;
    this.now = options.now ?? Date.now;
    this.sessionCookie = createCookie(`${prefix}crib-session`, { ...base, maxAge: Math.round(this.absoluteMs / 1000) });
    this.returnCookie = createCookie(`${prefix}crib-return`, { ...base, maxAge: 5 * 60 });
  }

  private expiresAt(record: SessionRecord): number {
    return Math.min(record.createdAt + this.absoluteMs, record.lastSeenAt + this.idleMs);
  }

  /** The request's session, renewed when its tokens are about to expire; null when there is none. Each call looks it up. */
  session(request: Request): Promise<Session | null> {
    return this.lookUp(request.headers.get("Cookie"));
  }

  /** The sign-in of a request with this Cookie header, looked up once, when first asked. */
  identityOf(cookieHeader: string | null): RequestIdentity {
    return new RequestIdentity(() => this.lookUp(cookieHeader));
  }

  private async lookUp(cookieHeader: string | null): Promise<Session | null> {
    const id: unknown = await this.sessionCookie.parse(cookieHeader);
    if (typeof id !== "string" || id.length < 20) return null;
    const record = await this.store.get(id);
    if (!record || record.ended) return null;
    const now = this.now();
    if (now >= this.expiresAt(record)) {
      await this.endUnused(id, record, now);
      return null;
    }
    if (this.renewalDue(record, now)) {
      const renewed = await this.renew(id, record);
      if (!renewed) return null;
      return { id, record: renewed, setCookies: [] };
    }
    if (now - record.lastSeenAt >= TOUCH_EVERY_MS) {
      const touched = { ...record, lastSeenAt: now };
      await this.store.touch(id, now, this.expiresAt(touched));
      return { id, record: touched, setCookies: [] };
    }
    return { id, record, setCookies: [] };
  }

  /**
   * A session whose idle time or absolute lifetime ran out. Past the absolute end it goes; after
   * idle time it stays, ended and holding only its ID token, until its absolute end, so that a
   * Logout from a page it showed still names the session to the provider. Its refresh token is
   * revoked at the provider, where the provider offers that.
   */
  private async endUnused(id: string, record: SessionRecord, now: number): Promise<void> {
    const absoluteEnd = record.createdAt + this.absoluteMs;
    metrics.sessionsEnded.inc({ reason: now >= absoluteEnd ? "expired" : "idle" });
    if (now >= absoluteEnd) await this.store.delete(id);
    else await this.store.set(id, this.ended(record, "idle"), absoluteEnd);
    const refreshToken = record.tokens.refreshToken;
    if (refreshToken) void this.oidc.revoke(refreshToken).catch(() => undefined);
  }

  /** What stays of an ended session: who it was and the ID token, which logout needs; no token that grants anything. */
  private ended(record: SessionRecord, reason: NonNullable<SessionRecord["ended"]>): SessionRecord {
    const { renewRetryAt: _, ...rest } = record;
    return { ...rest, tokens: { ...record.tokens, accessToken: "", refreshToken: null }, ended: reason };
  }

  /** Tokens due for renewal: a refresh token to renew with, expiry near (renewEarlyMs), no back-off. */
  private renewalDue(record: SessionRecord, now: number): boolean {
    const { tokens } = record;
    return tokens.refreshToken !== null && tokens.expiresAt - renewEarlyMs(tokens) <= now && (record.renewRetryAt ?? 0) <= now;
  }

  /**
   * Renews the session's tokens once, however many requests find them due at the same time: the
   * requests of this process share one renewal, and those of other processes (and replicas on the
   * same store) wait for the one that holds the store's claim and use what it wrote. A provider
   * that rotates refresh tokens accepts each only once, so a second renewal would end the session.
   * Null when the session has ended.
   */
  private renew(id: string, seen: SessionRecord): Promise<SessionRecord | null> {
    let renewal = this.renewals.get(id);
    if (!renewal) {
      renewal = this.renewOnce(id, seen).finally(() => this.renewals.delete(id));
      this.renewals.set(id, renewal);
    }
    return renewal;
  }

  private async renewOnce(id: string, seen: SessionRecord): Promise<SessionRecord | null> {
    const now = this.now();
    // Held past the provider's timeout, so that a process that dies while renewing frees the claim.
    const until = now + this.oidc.timeoutMs + 5_000;
    const claimed = await this.store.claimRenewal(id, seen.tokens.refreshToken!, until, now);
    if (!claimed) return this.awaitRenewal(id, seen);
    try {
      const tokens = await this.oidc.refresh(claimed.tokens);
      const { renewRetryAt: _, ...rest } = claimed;
      const renewed: SessionRecord = { ...rest, tokens, lastSeenAt: this.now() };
      await this.store.set(id, renewed, this.expiresAt(renewed));
      metrics.sessionsRenewed.inc();
      return renewed;
    } catch (error) {
      if (error instanceof TokenRefusedError) {
        // The provider said no (the grant was revoked, the user disabled): the session ends, and
        // the next page sends the person through sign-in. What logout needs of it stays.
        log.warn({ providerError: error.code, ...(error.refusal?.description ? { providerErrorDescription: error.refusal.description } : {}), ...(error.refusal?.status ? { providerStatus: error.refusal.status } : {}) }, "Session ended: the identity provider refused to renew its tokens");
        metrics.sessionsEnded.inc({ reason: "refused" });
        await this.store.set(id, this.ended(claimed, "refused"), claimed.createdAt + this.absoluteMs);
        return null;
      }
      // Nothing was decided about the user: the session goes on to its own end, renewal is tried later.
      log.warn({ err: error, retryInMinutes: RENEW_RETRY_MS / 60_000 }, "Session kept: its tokens could not be renewed, the identity provider did not answer");
      const kept: SessionRecord = { ...claimed, lastSeenAt: this.now(), renewRetryAt: this.now() + RENEW_RETRY_MS };
      await this.store.set(id, kept, this.expiresAt(kept));
      return kept;
    }
  }

  /**
   * Another process holds the claim: its renewal ends with new tokens, a back-off, or the session
   * deleted, all written to the store. Waits for one of those until the claim runs out, then goes on
   * with what the store holds.
   */
  private async awaitRenewal(id: string, seen: SessionRecord): Promise<SessionRecord | null> {
    // Wall-clock time, not the session clock: this is how long a request waits.
    const deadline = Date.now() + this.oidc.timeoutMs + 5_000;
    for (;;) {
      const current = await this.store.get(id);
      if (!current || current.ended) return null;
      const settled = current.tokens.refreshToken !== seen.tokens.refreshToken || current.tokens.expiresAt !== seen.tokens.expiresAt || (current.renewRetryAt ?? 0) > this.now();
      if (settled || Date.now() >= deadline) return current;
      await new Promise((resolve) => setTimeout(resolve, RENEW_POLL_MS));
    }
  }

  async user(request: Request): Promise<User | null> {
    return (await this.session(request))?.record.user ?? null;
  }

  /** Starts a session for a finished sign-in: a new id, whatever the browser had before. */
  async begin(user: User, tokens: SessionRecord["tokens"], previous: Request, providerSid?: string): Promise<string[]> {
    const old = await this.sessionCookie.parse(previous.headers.get("Cookie"));
    if (typeof old === "string") await this.store.delete(old);
    const id = randomBytes(32).toString("base64url");
    const now = this.now();
    const record: SessionRecord = { user, tokens, createdAt: now, lastSeenAt: now, ...(providerSid ? { providerSid } : {}) };
    await this.store.set(id, record, this.expiresAt(record));
    return [await this.sessionCookie.serialize(id)];
  }

  /** The user id of a session cookie's session, for the rate limits; null when the cookie is none of ours or its session has ended. */
  async userIdOf(cookieHeader: string | null): Promise<string | null> {
    const id: unknown = await this.sessionCookie.parse(cookieHeader);
    if (typeof id !== "string" || id.length < 20) return null;
    const record = await this.store.get(id);
    return record && !record.ended ? record.user.id : null;
  }

  /**
   * Back-channel logout: the provider ended a user's session there; returns how many of the
   * portal's ended with it, or null for a token already used (its `jti` is remembered, on the
   * shared store, for as long as the token would be accepted).
   */
  async endForProvider(token: LogoutToken): Promise<number | null> {
    // The token is remembered once its sessions have ended, not before: a provider that sends it
    // again because the store failed halfway must not be taken for a replay. A replay after that
    // ends nothing (nor the sessions begun since).
    if (await this.store.logoutTokenUsed(token.jti, Date.now())) return null;
    const ended = await this.store.deleteForUser({ ...(token.sub ? { userId: token.sub } : {}), ...(token.sid ? { providerSid: token.sid } : {}) });
    // Two deliveries at once both end the same sessions; only one is remembered as the token's use.
    await this.store.rememberLogoutToken(token.jti, token.acceptedUntil, Date.now());
    if (ended > 0) metrics.sessionsEnded.inc({ reason: "backchannel" }, ended);
    return ended;
  }

  /**
   * Ends the request's session, live or ended; the answer's Set-Cookie removes the cookie. Gives
   * what logout at the provider needs: the ID token (also of a session that had ended) and the
   * refresh token to revoke (of a live one).
   */
  async end(request: Request): Promise<{ idToken: string | null; refreshToken: string | null; setCookies: string[] }> {
    const id = await this.sessionCookie.parse(request.headers.get("Cookie"));
    let record: SessionRecord | null = null;
    if (typeof id === "string") {
      record = await this.store.get(id);
      await this.store.delete(id);
      if (record && !record.ended) metrics.sessionsEnded.inc({ reason: "logout" });
    }
    return { idToken: record?.tokens.idToken ?? null, refreshToken: record?.tokens.refreshToken ?? null, setCookies: [await this.sessionCookie.serialize("", { maxAge: 0 })] };
  }
}

/** How long before its tokens expire a session renews them: a minute, or a quarter of their lifetime when that is less. */
export function renewEarlyMs(tokens: Pick<SessionTokens, "issuedAt" | "expiresAt">): number {
  if (tokens.issuedAt === undefined) return RENEW_EARLY_MS;
  return Math.min(RENEW_EARLY_MS, Math.max(0, tokens.expiresAt - tokens.issuedAt) * RENEW_EARLY_FRACTION);
}
