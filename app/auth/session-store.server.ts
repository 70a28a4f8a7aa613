import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { User } from "./user";

/** What the portal keeps of a sign-in, on the server: the cookie holds only a random id. */
export interface SessionRecord {
  user: User;
  tokens: SessionTokens;
  /** Milliseconds since the epoch. */
  createdAt: number;
  lastSeenAt: number;
  /**
   * A renewal failed because the provider did not answer: the session goes on, and renewal is
   * not tried again before this time (ms since the epoch).
   */
  renewRetryAt?: number;
  /** The identity provider's session (the ID token's `sid`), which its back-channel logout names. */
  providerSid?: string;
  /**
   * The session has ended (its idle time ran out, the provider refused a renewal) but the browser
   * may still log out from a page it showed: the record stays, tokens gone but the ID token, so
   * that logout can name the session to the provider (`id_token_hint`), until the session's
   * absolute end. Nobody is signed in by it.
   */
  ended?: "idle" | "refused";
}

export interface SessionTokens {
  accessToken: string;
  refreshToken: string | null;
  idToken: string;
  /** When the provider issued them, in milliseconds since the epoch (absent in sessions of earlier releases). */
  issuedAt?: number;
  /** When the access token expires, in milliseconds since the epoch. */
  expiresAt: number;
}

/**
 * Where sessions live: a SQLite file by default, PostgreSQL when replicas share one
 * (session-store-pg.server.ts), behind these few calls.
 */
export interface SessionStore {
  get(id: string): Promise<SessionRecord | null>;
  /** Writes the record whole; it also ends any renewal claim on the session (`claimRenewal`). */
  set(id: string, record: SessionRecord, expiresAt: number): Promise<void>;
  delete(id: string): Promise<void>;
  touch(id: string, lastSeenAt: number, expiresAt: number): Promise<void>;
  /**
   * Claims the renewal of the session's tokens, atomically across every process that shares the
   * store: the session exists and has not expired at `now`, no other claim on it runs until after
   * `now`, and it still holds `refreshToken` (a provider that rotates refresh tokens accepts each
   * one once, so a token another request has already spent must not be spent again). The claim
   * is held until `until` or the next `set` of the session, whichever comes first. Returns the
   * record as claimed, or null for everyone else.
   *
   * One statement in SQL: `UPDATE sessions SET renewing_until = :until WHERE key = :key AND
   * expires_at > :now AND (renewing_until IS NULL OR renewing_until <= :now) AND
   * <the record's refresh token> = :refreshToken RETURNING record`; `set` writes
   * `renewing_until = NULL`.
   */
  claimRenewal(id: string, refreshToken: string, until: number, now: number): Promise<SessionRecord | null>;
  /**
   * Ends sessions at the provider's word (back-channel logout): a user's, those of one provider
   * session, or that session's of that user. Returns how many.
   */
  deleteForUser(order: { userId?: string; providerSid?: string }): Promise<number>;
  /**
   * Remembers a back-channel logout token's id until `until` (ms since the epoch), for every
   * process and replica on the store: true the first time, false for a token already seen (a replay).
   */
  rememberLogoutToken(jti: string, until: number, now: number): Promise<boolean>;
  /** Whether a back-channel logout token's id is remembered (it was used, and has not expired). */
  logoutTokenUsed(jti: string, now: number): Promise<boolean>;
}

/** Ids are kept hashed: a copy of the store holds no cookie anyone could present. */
export const key = (id: string) => createHash("sha256").update(id).digest("base64url");

/** Sessions in a SQLite file of their own (never the catalogue, which imports replace). */
export class SqliteSessionStore implements SessionStore {
  private readonly db: Database.Database;
  private lastPrune = 0;

  constructor(file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma("journal_mode = WAL");
    this.db.exec(`CREATE TABLE IF NOT EXISTS sessions (
      key TEXT PRIMARY KEY,
      record TEXT NOT NULL,
      expires_at INTEGER NOT NULL,
      renewing_until INTEGER
    )`);
    // A sessions.db of an earlier release has no claim column: its sessions carry on.
    const columns = this.db.prepare("SELECT name FROM pragma_table_info('sessions')").all() as { name: string }[];
    if (!columns.some((c) => c.name === "renewing_until")) this.db.exec("ALTER TABLE sessions ADD COLUMN renewing_until INTEGER");
    this.db.exec("CREATE TABLE IF NOT EXISTS logout_tokens (key TEXT PRIMARY KEY, expires_at INTEGER NOT NULL)");
  }

  async logoutTokenUsed(jti: string, now: number): Promise<boolean> {
    return this.db.prepare("SELECT 1 FROM logout_tokens WHERE key = ? AND expires_at > ?").get(key(`logout:${jti}`), now) !== undefined;
  }

  async rememberLogoutToken(jti: string, until: number, now: number): Promise<boolean> {
    // One statement: a token seen before and not yet forgotten changes nothing.
    const changes = this.db
      .prepare("INSERT INTO logout_tokens (key, expires_at) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET expires_at = excluded.expires_at WHERE logout_tokens.expires_at <= ?")
      .run(key(`logout:${jti}`), until, now).changes;
    this.db.prepare("DELETE FROM logout_tokens WHERE expires_at <= ?").run(now);
    return changes === 1;
  }

  async get(id: string): Promise<SessionRecord | null> {
    const row = this.db.prepare("SELECT record, expires_at FROM sessions WHERE key = ?").get(key(id)) as
      | { record: string; expires_at: number }
      | undefined;
    if (!row || row.expires_at <= Date.now()) return null;
    return JSON.parse(row.record) as SessionRecord;
  }

  async set(id: string, record: SessionRecord, expiresAt: number): Promise<void> {
    this.db
      .prepare(
        "INSERT INTO sessions (key, record, expires_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET record = excluded.record, expires_at = excluded.expires_at, renewing_until = NULL",
      )
      .run(key(id), JSON.stringify(record), expiresAt);
    this.prune();
  }

  async delete(id: string): Promise<void> {
    this.db.prepare("DELETE FROM sessions WHERE key = ?").run(key(id));
  }

  async deleteForUser({ userId, providerSid }: { userId?: string; providerSid?: string }): Promise<number> {
    if (!userId && !providerSid) return 0;
    return this.db
      .prepare(
        // A session whose provider session is unknown ends with its user's.
        "DELETE FROM sessions WHERE (@user IS NULL OR json_extract(record, '$.user.id') = @user) AND (@sid IS NULL OR json_extract(record, '$.providerSid') = @sid OR (@user IS NOT NULL AND json_extract(record, '$.providerSid') IS NULL))")
      .run({ user: userId ?? null, sid: providerSid ?? null }).changes;
  }

  close(): void {
    this.db.close();
  }

  async touch(id: string, lastSeenAt: number, expiresAt: number): Promise<void> {
    this.db
      .prepare("UPDATE sessions SET record = json_set(record, '$.lastSeenAt', ?), expires_at = ? WHERE key = ?")
      .run(lastSeenAt, expiresAt, key(id));
  }

  async claimRenewal(id: string, refreshToken: string, until: number, now: number): Promise<SessionRecord | null> {
    // One statement, so two processes cannot both see the claim free (SQLite serialises writers).
    const row = this.db
      .prepare(
        `UPDATE sessions SET renewing_until = ?
         WHERE key = ? AND expires_at > ? AND (renewing_until IS NULL OR renewing_until <= ?)
           AND json_extract(record, '$.tokens.refreshToken') = ?
         RETURNING record`,
      )
      .get(until, key(id), now, now, refreshToken) as { record: string } | undefined;
    return row ? (JSON.parse(row.record) as SessionRecord) : null;
  }

  /** Expired sessions go, at most once a minute, when a new one is written. */
  private prune(): void {
    const now = Date.now();
    if (now - this.lastPrune < 60_000) return;
    this.lastPrune = now;
    this.db.prepare("DELETE FROM sessions WHERE expires_at <= ?").run(now);
  }
}

