import { storeFailed, storeWorked, type StoreKind } from "~/lib/store-health.server";
import type { SessionRecord, SessionStore } from "./session-store.server";

/**
 * The session store could not be read or written (PostgreSQL stopped, a full disk under
 * sessions.db): the person's sign-in is not at fault, and the page says sign-in is unavailable
 * for a moment instead of "Authentication failed" or a stack trace.
 */
export class SessionStoreUnavailable extends Error {
  override name = "SessionStoreUnavailable";
}

/** Errors of a connection that a moment later may work again: a database restarting, a connection it closed. */
const TRANSIENT = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "57P01", "57P02", "57P03", "08000", "08001", "08003", "08006", "SQLITE_BUSY"]);
function isTransient(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && TRANSIENT.has(code)) return true;
  return error instanceof Error && /Connection terminated|timeout exceeded when trying to connect/i.test(error.message);
}

/** Tries of a call that may be repeated (reads, and writes that set a value whole). */
const TRIES = 3;
const BACKOFF_MS = 250;

/**
 * A session store whose failures are the portal's, not the person's: each call that fails is
 * reported (store-health: metrics, one log line when failing starts and ends) and thrown as
 * SessionStoreUnavailable; a call that may be repeated is tried again after a connection error,
 * so that a database restart of a fraction of a second shows no one an error.
 */
export class GuardedSessionStore implements SessionStore {
  constructor(
    private readonly inner: SessionStore,
    private readonly kind: StoreKind,
  ) {}

  private async call<T>(work: () => Promise<T>, repeatable: boolean): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        const value = await work();
        storeWorked(this.kind, "sessions");
        return value;
      } catch (error) {
        if (repeatable && attempt < TRIES && isTransient(error)) {
          await new Promise((resolve) => setTimeout(resolve, BACKOFF_MS * attempt));
          continue;
        }
        storeFailed(this.kind, "sessions", error);
        throw new SessionStoreUnavailable("The session store is not answering", { cause: error });
      }
    }
  }

  get(id: string): Promise<SessionRecord | null> {
    return this.call(() => this.inner.get(id), true);
  }

  set(id: string, record: SessionRecord, expiresAt: number): Promise<void> {
    return this.call(() => this.inner.set(id, record, expiresAt), true);
  }

  delete(id: string): Promise<void> {
    return this.call(() => this.inner.delete(id), true);
  }

  touch(id: string, lastSeenAt: number, expiresAt: number): Promise<void> {
    return this.call(() => this.inner.touch(id, lastSeenAt, expiresAt), true);
  }

  // A claim that was made before its answer was lost would, tried again, find itself in the way.
  claimRenewal(id: string, refreshToken: string, until: number, now: number): Promise<SessionRecord | null> {
    return this.call(() => this.inner.claimRenewal(id, refreshToken, until, now), false);
  }

  deleteForUser(order: { userId?: string; providerSid?: string }): Promise<number> {
    return this.call(() => this.inner.deleteForUser(order), true);
  }

  logoutTokenUsed(jti: string, now: number): Promise<boolean> {
    return this.call(() => this.inner.logoutTokenUsed(jti, now), true);
  }

  // Tried again after a lost answer, a token it had remembered would look like its own replay.
  rememberLogoutToken(jti: string, until: number, now: number): Promise<boolean> {
    return this.call(() => this.inner.rememberLogoutToken(jti, until, now), false);
  }
}
