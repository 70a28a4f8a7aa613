import pg from "pg";

/**
 * PostgreSQL, the optional store that several replicas share (DATABASE_URL): a pool whose every
 * wait is bounded, and migrations that any number of replicas may run at once.
 */

export interface Migration {
  /** Never changes once released: it is what the table of applied migrations remembers. */
  id: string;
  sql: string;
}

/** Any number of the replicas' statements take at most this long; a stuck database fails them, not the page forever. */
const QUERY_TIMEOUT_MS = 5000;

export function createPool(url: string, options: { max?: number } = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: 3000,
    query_timeout: QUERY_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    application_name: "crib-search",
    // A page's writes (its rate-limit count, a session's touch) must not wait for the disk: a
    // database crash may then lose its last fraction of a second of commits, whole transactions
    // only, which costs a count or a sign-in at worst and never leaves the totals inconsistent.
    options: "-c synchronous_commit=off",
  });
  // An idle client that loses its connection (a database restart) is dropped by the pool; without
  // a listener the error would end the process.
  pool.on("error", (error) => console.error("PostgreSQL: an idle connection failed:", error.message));
  return pool;
}

/** The key of the advisory lock that puts the replicas' migrations one after another. */
const MIGRATION_LOCK = 0x63726962; // "crib"

/**
 * Applies the migrations not applied yet, in order, in one transaction under an advisory lock:
 * replicas that start together wait for each other, and the second finds the work done. Each
 * migration is written to be safe to run again (IF NOT EXISTS) besides.
 */
export function migrate(pool: pg.Pool, migrations: readonly Migration[]): Promise<string[]> {
  return inTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await client.query("CREATE TABLE IF NOT EXISTS crib_migrations (id TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())");
    const done = new Set((await client.query<{ id: string }>("SELECT id FROM crib_migrations")).rows.map((row) => row.id));
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.id)) continue;
      await client.query(migration.sql);
      await client.query("INSERT INTO crib_migrations (id) VALUES ($1)", [migration.id]);
      applied.push(migration.id);
    }
    return applied;
  });
}

/**
 * Runs `work` in a transaction on one client of the pool. A client out of the pool has no listener
 * for its connection's errors (the pool listens to its idle clients only), and an `error` event
 * with none stops the process: the database going away mid-transaction would take the replica
 * down. The error is kept instead, the work's own query fails with it, and the broken client is
 * released to be closed rather than reused.
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const keep = (error: Error) => {
    broken = error;
  };
  client.on("error", keep);
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.off("error", keep);
    client.release(broken);
  }
}

/** Whether the database answers within `ms`; never throws. */
export async function ping(pool: pg.Pool, ms: number): Promise<{ ok: boolean; detail: string }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<{ ok: boolean; detail: string }>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, detail: `no answer within ${ms} ms` }), ms);
  });
  const asked = pool.query("SELECT 1").then(
    () => ({ ok: true, detail: "answering" }),
    (error: unknown) => ({ ok: false, detail: error instanceof Error ? error.message : String(error) }),
  );
  try {
    return await Promise.race([asked, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A connection of its own that LISTENs on one channel for other replicas' NOTIFY, and connects
 * again (after 1 s, then up to 10 s) when it is lost. While it is not listening, `listening` is
 * false and whoever relies on it must not trust what it has kept; every (re)connection and every
 * loss calls `onReset`, every notification `onMessage`.
 */
export class Listener {
  private client: pg.Client | null = null;
  private retryMs = 1000;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  listening = false;

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly handlers: { onMessage(payload: string): void; onReset(): void },
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Not a channel name: ${channel}`);
  }

  /** Starts listening; resolves once listening, or once the first try has failed (the retries go on). */
  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 3000, keepAlive: true, application_name: "crib-search-listen" });
    this.client = client;
    client.on("notification", (message) => {
      if (message.channel === this.channel) this.handlers.onMessage(message.payload ?? "");
    });
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client, new Error("connection ended")));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      if (this.client !== client) return;
      this.listening = true;
      this.retryMs = 1000;
      this.handlers.onReset();
    } catch (error) {
      this.lost(client, error);
    }
  }

  private lost(client: pg.Client, error: unknown): void {
    if (this.client !== client) return;
    this.client = null;
    const was = this.listening;
    this.listening = false;
    this.handlers.onReset();
    client.end().catch(() => undefined);
    if (this.closed) return;
    if (was) console.warn(`PostgreSQL: stopped listening on ${this.channel} (${error instanceof Error ? error.message : error}); retrying`);
    this.timer = setTimeout(() => void this.start(), this.retryMs);
    this.timer.unref();
    this.retryMs = Math.min(this.retryMs * 2, 10_000);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = null;
    this.listening = false;
    await client?.end().catch(() => undefined);
  }
}
