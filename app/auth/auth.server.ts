import { randomBytes } from "node:crypto";
import { createCookie, type Cookie } from "@remix-run/node";
import { TokenRefusedError, type OidcClient } from "./oidc.server";
import type { SessionRecord, SessionStore } from "./session-store.server";
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
 * A request's own token, set by the HTTP server (whatever a client sends under this name is
 * removed first): the loaders of one page (the layout's, the page's, a signal's) then share one
 * look-up of the session, which with a shared store is a round trip each.
 */
export const REQUEST_TOKEN_HEADER = "x-crib-request";

const ABSOLUTE_MS = 12 * 60 * 60 * 1000;
const IDLE_MS = 60 * 60 * 1000;
/** Tokens are renewed this long before they expire (spec: "expire early 60 s"). */
const RENEW_EARLY_MS = 60_000;
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
  private readonly perRequest = new Map<string, { at: number; session: Promise<Session | null> }>();

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

  /** The request's session, renewed when its tokens are about to expire; null when there is none. */
  session(request: Request): Promise<Session | null> {
    const token = request.headers.get(REQUEST_TOKEN_HEADER);
    if (!token) return this.lookUp(request);
    const known = this.perRequest.get(token);
    if (known) return known.session;
    const now = Date.now();
    // A request's token is needed while it runs: the rest go after a minute.
    if (this.perRequest.size >= 1000) for (const [key, entry] of this.perRequest) if (now - entry.at > 60_000) this.perRequest.delete(key);
    const session = this.lookUp(request);
    this.perRequest.set(token, { at: now, session });
    return session;
  }

  private forget(request: Request): void {
    const token = request.headers.get(REQUEST_TOKEN_HEADER);
    if (token) this.perRequest.delete(token);
  }

  private async lookUp(request: Request): Promise<Session | null> {
    const id: unknown = await this.sessionCookie.parse(request.headers.get("Cookie"));
    if (typeof id !== "string" || id.length < 20) return null;
    const record = await this.store.get(id);
    if (!record) return null;
    const now = this.now();
    if (now >= this.expiresAt(record)) {
      await this.store.delete(id);
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

  /** Tokens due for renewal: a refresh token to renew with, expiry within a minute, no back-off. */
  private renewalDue(record: SessionRecord, now: number): boolean {
    return record.tokens.refreshToken !== null && record.tokens.expiresAt - RENEW_EARLY_MS <= now && (record.renewRetryAt ?? 0) <= now;
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
      return renewed;
    } catch (error) {
      const reason = error instanceof Error ? `${error.message}${error.cause instanceof Error ? `: ${error.cause.message}` : ""}` : String(error);
      if (error instanceof TokenRefusedError) {
        // The provider said no (the grant was revoked, the user disabled): the session ends.
        console.warn(`Session ended: the identity provider refused to renew its tokens (${reason})`);
        await this.store.delete(id);
        return null;
      }
      // Nothing was decided about the user: the session goes on to its own end, renewal is tried later.
      console.warn(`Session kept: its tokens could not be renewed (${reason}); trying again in ${RENEW_RETRY_MS / 60_000} minutes`);
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
      if (!current) return null;
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
    this.forget(previous);
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
    return (await this.store.get(id))?.user.id ?? null;
  }

  /** Back-channel logout: the provider ended a user's session there; returns how many of the portal's ended with it. */
  endForProvider(order: { sub?: string; sid?: string }): Promise<number> {
    return this.store.deleteForUser({ ...(order.sub ? { userId: order.sub } : {}), ...(order.sid ? { providerSid: order.sid } : {}) });
  }

  /** Ends the request's session; the answer's Set-Cookie removes the cookie. */
  async end(request: Request): Promise<{ idToken: string | null; setCookies: string[] }> {
    this.forget(request);
    const id = await this.sessionCookie.parse(request.headers.get("Cookie"));
    let idToken: string | null = null;
    if (typeof id === "string") {
      idToken = (await this.store.get(id))?.tokens.idToken ?? null;
      await this.store.delete(id);
    }
    return { idToken, setCookies: [await this.sessionCookie.serialize("", { maxAge: 0 })] };
  }
}
