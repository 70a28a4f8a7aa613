import type pg from "pg";
import type { Migration } from "~/lib/postgres.server";
import { key, type SessionRecord, type SessionStore } from "./session-store.server";

export const SESSION_MIGRATIONS: Migration[] = [
  {
    id: "001-sessions",
    sql: `CREATE TABLE IF NOT EXISTS sessions (
      key TEXT PRIMARY KEY,
      record JSONB NOT NULL,
      user_id TEXT NOT NULL,
      provider_sid TEXT,
      expires_at BIGINT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS sessions_user ON sessions (user_id);
    CREATE INDEX IF NOT EXISTS sessions_expires ON sessions (expires_at);`,
  },
  { id: "002-session-renewal-claims", sql: "ALTER TABLE sessions ADD COLUMN IF NOT EXISTS renewing_until BIGINT" },
];

/**
 * Sessions in the PostgreSQL database the replicas share, so that any replica knows a sign-in
 * made on another and a logout on one ends the session on all. Ids are kept hashed, as in SQLite.
 */
export class PgSessionStore implements SessionStore {
  private lastPrune = 0;

  constructor(private readonly pool: pg.Pool) {}

  async get(id: string): Promise<SessionRecord | null> {
    const { rows } = await this.pool.query<{ record: SessionRecord }>({
      name: "session-get",
      text: "SELECT record FROM sessions WHERE key = $1 AND expires_at > $2",
      values: [key(id), Date.now()],
    });
    return rows[0]?.record ?? null;
  }

  async set(id: string, record: SessionRecord, expiresAt: number): Promise<void> {
    await this.pool.query({
      name: "session-set",
      text: `INSERT INTO sessions (key, record, user_id, provider_sid, expires_at) VALUES ($1, $2, $3, $4, $5)
        ON CONFLICT (key) DO UPDATE SET record = excluded.record, user_id = excluded.user_id,
          provider_sid = excluded.provider_sid, expires_at = excluded.expires_at, renewing_until = NULL`,
      values: [key(id), JSON.stringify(record), record.user.id, record.providerSid ?? null, expiresAt],
    });
    await this.prune();
  }

  async delete(id: string): Promise<void> {
    await this.pool.query({ name: "session-delete", text: "DELETE FROM sessions WHERE key = $1", values: [key(id)] });
  }

  async touch(id: string, lastSeenAt: number, expiresAt: number): Promise<void> {
    await this.pool.query({
      name: "session-touch",
      text: "UPDATE sessions SET record = jsonb_set(record, '{lastSeenAt}', to_jsonb($2::bigint)), expires_at = $3 WHERE key = $1",
      values: [key(id), lastSeenAt, expiresAt],
    });
  }

  async claimRenewal(id: string, refreshToken: string, until: number, now: number): Promise<SessionRecord | null> {
    // One statement: of the replicas asking at once, one finds the claim free (SessionStore.claimRenewal).
    const { rows } = await this.pool.query<{ record: SessionRecord }>({
      name: "session-claim-renewal",
      text: `UPDATE sessions SET renewing_until = $2
        WHERE key = $1 AND expires_at > $3 AND (renewing_until IS NULL OR renewing_until <= $3)
          AND record->'tokens'->>'refreshToken' = $4
        RETURNING record`,
      values: [key(id), until, now, refreshToken],
    });
    return rows[0]?.record ?? null;
  }

  async deleteForUser({ userId, providerSid }: { userId?: string; providerSid?: string }): Promise<number> {
    if (!userId && !providerSid) return 0;
    const result = await this.pool.query(
      // A session whose provider session is unknown ends with its user's.
      "DELETE FROM sessions WHERE ($1::text IS NULL OR user_id = $1) AND ($2::text IS NULL OR provider_sid = $2 OR ($1::text IS NOT NULL AND provider_sid IS NULL))", [
      userId ?? null,
      providerSid ?? null,
    ]);
    return result.rowCount ?? 0;
  }

  /** Expired sessions go, at most once a minute per replica, when a new one is written. */
  private async prune(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPrune < 60_000) return;
    this.lastPrune = now;
    await this.pool.query("DELETE FROM sessions WHERE expires_at <= $1", [now]);
  }
}
