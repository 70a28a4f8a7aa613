import type pg from "pg";
import { Listener, type Migration } from "~/lib/postgres.server";
import { key, type SessionRecord, type SessionStore } from "./session-store.server";

const CHANGES_CHANNEL = "crib_sessions";

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
  {
    // Every change to a session, whichever replica makes it, tells every replica which one.
    id: "003-session-change-notices",
    sql: `CREATE OR REPLACE FUNCTION crib_session_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_notify('${CHANGES_CHANNEL}', OLD.key); RETURN NULL; END $$;
    DROP TRIGGER IF EXISTS sessions_changed ON sessions;
    CREATE TRIGGER sessions_changed AFTER UPDATE OR DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION crib_session_changed();`,
  },
  {
    // The ids of the back-channel logout tokens seen, until they would no longer be accepted (no replays).
    id: "004-logout-token-ids",
    sql: "CREATE TABLE IF NOT EXISTS logout_tokens (key TEXT PRIMARY KEY, expires_at BIGINT NOT NULL)",
  },
];

/** How long a replica may answer a session from memory, by default: a bound in case a change notice never comes. */
const REMEMBER_MS = 5000;
const REMEMBER_AT_MOST = 10_000;

/**
 * Sessions in the PostgreSQL database the replicas share, so that any replica knows a sign-in
 * made on another and a logout on one ends the session on all. Ids are kept hashed, as in SQLite.
 *
 * Given the database's address, each replica also remembers the sessions it has read, for a few
 * seconds, so that a page need not ask the database: a trigger on the table notifies every
 * replica of each change or deletion (a logout, a renewal, a touch, a back-channel logout) and the
 * replicas forget that session at once. While the replica is not listening, it remembers nothing.
 */
export class PgSessionStore implements SessionStore {
  private lastPrune = 0;
  private readonly remembered = new Map<string, { record: SessionRecord; until: number }>();
  /** Moves on with every notice: a look-up that saw it move may have read what the notice undid. */
  private notices = 0;
  private readonly listener: Listener | null;
  private readonly rememberMs: number;

  constructor(
    private readonly pool: pg.Pool,
    options: { listenUrl?: string; rememberMs?: number } = {},
  ) {
    this.rememberMs = options.rememberMs ?? REMEMBER_MS;
    this.listener = options.listenUrl
      ? new Listener(options.listenUrl, CHANGES_CHANNEL, {
          onMessage: (changed) => this.forget(changed),
          onReset: () => {
            this.notices++;
            this.remembered.clear();
          },
        })
      : null;
  }

  /** Starts listening for other replicas' changes (after the migrations: the trigger is theirs). */
  async listen(): Promise<void> {
    await this.listener?.start();
  }

  async close(): Promise<void> {
    await this.listener?.close();
  }

  async get(id: string): Promise<SessionRecord | null> {
    const hashed = key(id);
    const now = Date.now();
    const kept = this.remembered.get(hashed);
    if (kept && kept.until > now && this.listener?.listening) return kept.record;
    const notices = this.notices;
    const { rows } = await this.pool.query<{ record: SessionRecord; expires_at: string }>({
      name: "session-get",
      text: "SELECT record, expires_at FROM sessions WHERE key = $1 AND expires_at > $2",
      values: [hashed, now],
    });
    const row = rows[0];
    if (!row) return null;
    if (this.listener?.listening && notices === this.notices) this.remember(hashed, row.record, Math.min(now + this.rememberMs, Number(row.expires_at)));
    return row.record;
  }

  /** What this replica changes it forgets at once, and a look-up under way does not keep what it read. */
  private forget(hashed: string): void {
    this.notices++;
    this.remembered.delete(hashed);
  }

  private remember(hashed: string, record: SessionRecord, until: number): void {
    this.remembered.delete(hashed);
    if (this.remembered.size >= REMEMBER_AT_MOST) this.remembered.delete(this.remembered.keys().next().value!);
    this.remembered.set(hashed, { record, until });
  }

  async set(id: string, record: SessionRecord, expiresAt: number): Promise<void> {
    this.forget(key(id));
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
    this.forget(key(id));
    await this.pool.query({ name: "session-delete", text: "DELETE FROM sessions WHERE key = $1", values: [key(id)] });
  }

  async touch(id: string, lastSeenAt: number, expiresAt: number): Promise<void> {
    this.forget(key(id));
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

  async logoutTokenUsed(jti: string, now: number): Promise<boolean> {
    const result = await this.pool.query({ name: "logout-token-used", text: "SELECT 1 FROM logout_tokens WHERE key = $1 AND expires_at > $2", values: [key(`logout:${jti}`), now] });
    return (result.rowCount ?? 0) > 0;
  }

  async rememberLogoutToken(jti: string, until: number, now: number): Promise<boolean> {
    // One statement: of the replicas given the same token, one inserts it (SessionStore.rememberLogoutToken).
    const result = await this.pool.query({
      name: "logout-token-remember",
      text: `INSERT INTO logout_tokens (key, expires_at) VALUES ($1, $2)
        ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at WHERE logout_tokens.expires_at <= $3`,
      values: [key(`logout:${jti}`), until, now],
    });
    await this.pool.query({ name: "logout-token-prune", text: "DELETE FROM logout_tokens WHERE expires_at <= $1", values: [now] });
    return result.rowCount === 1;
  }

  /** Expired sessions go, at most once a minute per replica, when a new one is written. */
  private async prune(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPrune < 60_000) return;
    this.lastPrune = now;
    await this.pool.query("DELETE FROM sessions WHERE expires_at <= $1", [now]);
  }
}
