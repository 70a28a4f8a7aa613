import { randomBytes } from "node:crypto";
import { createCookie, type Cookie } from "@remix-run/node";
import type { OidcClient } from "./oidc.server";
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
/** `lastSeenAt` is written at most this often: a page of requests is one visit. */
const TOUCH_EVERY_MS = 60_000;

/**
 * Sessions on the server. The cookie holds a random id, signed with SESSION_SECRET; the store
 * holds the user and the tokens. Every sign-in gets a new id (no fixation), logout deletes the
 * record (so an old cookie never signs anyone in again), and a session ends after an absolute and
 * an idle lifetime, or when its tokens cannot be renewed.
 */
export class Auth {
  readonly sessionCookie: Cookie;
  /** Where the user was going when sign-in started: a same-site path, for five minutes. */
  readonly returnCookie: Cookie;
  private readonly absoluteMs: number;
  private readonly idleMs: number;
  private readonly now: () => number;
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
    if (record.tokens.expiresAt - RENEW_EARLY_MS <= now) {
      try {
        const tokens = await this.oidc.refresh(record.tokens);
        const renewed = { ...record, tokens, lastSeenAt: now };
        await this.store.set(id, renewed, this.expiresAt(renewed));
        return { id, record: renewed, setCookies: [] };
      } catch (error) {
        console.warn(`Session ended: its tokens could not be renewed (${error instanceof Error ? error.message : error})`);
        await this.store.delete(id);
        return null;
      }
    }
    if (now - record.lastSeenAt >= TOUCH_EVERY_MS) {
      const touched = { ...record, lastSeenAt: now };
      await this.store.touch(id, now, this.expiresAt(touched));
      return { id, record: touched, setCookies: [] };
    }
    return { id, record, setCookies: [] };
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
