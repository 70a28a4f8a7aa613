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
  /** The identity provider's session (the ID token's `sid`), which its back-channel logout names. */
  providerSid?: string;
}

export interface SessionTokens {
  accessToken: string;
  refreshToken: string | null;
  idToken: string;
  /** When the access token expires, in milliseconds since the epoch. */
  expiresAt: number;
}

/**
 * Where sessions live: a SQLite file by default, PostgreSQL when replicas share one
 * (session-store-pg.server.ts), behind these few calls.
 */
export interface SessionStore {
  get(id: string): Promise<SessionRecord | null>;
  set(id: string, record: SessionRecord, expiresAt: number): Promise<void>;
  delete(id: string): Promise<void>;
  touch(id: string, lastSeenAt: number, expiresAt: number): Promise<void>;
  /**
   * Ends sessions at the provider's word (back-channel logout): a user's, those of one provider
   * session, or that session's of that user. Returns how many.
   */
  deleteForUser(order: { userId?: string; providerSid?: string }): Promise<number>;
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
      expires_at INTEGER NOT NULL
    )`);
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
      .prepare("INSERT INTO sessions (key, record, expires_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET record = excluded.record, expires_at = excluded.expires_at")
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

  /** Expired sessions go, at most once a minute, when a new one is written. */
  private prune(): void {
    const now = Date.now();
    if (now - this.lastPrune < 60_000) return;
    this.lastPrune = now;
    this.db.prepare("DELETE FROM sessions WHERE expires_at <= ?").run(now);
  }
}

