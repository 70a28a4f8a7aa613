import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { Signal } from "./model.server";
import { dayOf, Rollups, type AnalyticsReport } from "./rollup.server";

export { dayOf, PERIODS, type AnalyticsReport } from "./rollup.server";

/**
 * What `/analytics` and the forwarder need of the signals kept by the portal. SQLite by default;
 * replicas that want one shared view plug in a shared store behind the same calls.
 */
export interface SignalStore {
  /** Stores signals not stored yet (by id); returns how many were new. */
  insert(signals: readonly Signal[], source: "server" | "client"): number;
  /** Whether `key` was seen for `identity` within `windowMs`; marks it seen now either way. */
  seen(identity: string, key: string, windowMs: number, now: number): boolean;
  /** Whether `identity` may add `n` signals in the minute of `now`, at most `cap` a minute; counts them if so. */
  admit(identity: string, n: number, cap: number, now: number): boolean;
  countDropped(day: string, n: number): void;
  /** Runs `work` as one transaction: its checks and writes land together, with one commit. */
  atomically<T>(work: () => T): T;
  report(from: string, to: string, limit: number): AnalyticsReport;
}

interface Pending {
  seq: number;
  body: string;
  attempts: number;
}

/**
 * The outbox and the analytics store in one SQLite file of their own (never the catalogue, which
 * imports replace). Each signal is a row, pending until the forwarder has delivered it. Storing a
 * signal is one insert; the totals `/analytics` reads are kept by {@link Rollups}, which folds the
 * new rows in afterwards (in the background, and before each report).
 *
 * Several worker processes open the same file: WAL lets them write side by side, and a batch is
 * claimed in an immediate transaction, so no two workers send the same signal. What the workers
 * must agree on (the items a session has opened, the signals a session made this minute) is kept
 * here too. With `synchronous = NORMAL` a commit is in the WAL file when it returns, so it survives
 * a crash of the process (a power cut may take the last ones) and costs no fsync per page.
 */
export class SqliteSignalStore implements SignalStore {
  readonly db: Database.Database;
  readonly rollups: Rollups;
  private readonly statements;
  /** Runs its argument in an immediate transaction (a savepoint within one); made once, as a prepared statement is. */
  private readonly inTransaction: Database.Transaction<(work: () => unknown) => unknown>;

  constructor(readonly file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = NORMAL");
    this.db.pragma("busy_timeout = 5000");
    // Checkpoints (copying the WAL into the file, with an fsync) are the server's background work
    // (`checkpoint`, with each fold); the automatic one, after the commit of a page that passes
    // 10,000 pages of WAL, is only the backstop of a process that does not run it.
    this.db.pragma("wal_autocheckpoint = 10000");
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS signals (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        type TEXT NOT NULL,
        at INTEGER NOT NULL,
        source TEXT NOT NULL,
        body TEXT NOT NULL,
        sent_at INTEGER,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_at INTEGER NOT NULL DEFAULT 0,
        claimed_until INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX IF NOT EXISTS signals_pending ON signals(seq) WHERE sent_at IS NULL;
      CREATE INDEX IF NOT EXISTS signals_at ON signals(at);
      CREATE TABLE IF NOT EXISTS seen (identity TEXT NOT NULL, key TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (identity, key)) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS seen_at ON seen(at);
      CREATE TABLE IF NOT EXISTS minute_counts (identity TEXT PRIMARY KEY, minute INTEGER NOT NULL, n INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    `);
    this.rollups = new Rollups(this.db);
    this.inTransaction = this.db.transaction((work: () => unknown) => work());
    const s = (sql: string) => this.db.prepare(sql);
    this.statements = {
      insert: s("INSERT OR IGNORE INTO signals (id, type, at, source, body) VALUES (?, ?, ?, ?, ?)"),
      seenGet: s("SELECT at FROM seen WHERE identity = ? AND key = ?"),
      seenSet: s("INSERT INTO seen (identity, key, at) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET at = excluded.at"),
      // Adds `n` to the identity's count of this minute, unless that passes the cap: then no row changes.
      admit: s(`INSERT INTO minute_counts (identity, minute, n) VALUES (@identity, @minute, @n)
        ON CONFLICT DO UPDATE SET n = CASE WHEN minute = excluded.minute THEN n + excluded.n ELSE excluded.n END, minute = excluded.minute
        WHERE minute != excluded.minute OR n + excluded.n <= @cap`),
      claim: s("SELECT seq, body, attempts FROM signals WHERE sent_at IS NULL AND next_at <= ? AND claimed_until <= ? ORDER BY seq LIMIT ?"),
      lease: s("UPDATE signals SET claimed_until = ? WHERE seq = ?"),
      sent: s("UPDATE signals SET sent_at = ?, claimed_until = 0 WHERE seq = ?"),
      retry: s("UPDATE signals SET attempts = attempts + 1, next_at = ?, claimed_until = 0 WHERE seq = ?"),
      pending: s("SELECT count(*) AS n FROM signals WHERE sent_at IS NULL"),
      // The pending index is in seq order, and seq follows storing: the first is the oldest.
      oldestPending: s("SELECT at FROM signals WHERE sent_at IS NULL ORDER BY seq LIMIT 1").pluck(),
    };
  }

  insert(signals: readonly Signal[], source: "server" | "client"): number {
    const run = () => {
      let added = 0;
      for (const signal of signals) {
        added += this.statements.insert.run(signal.id, signal.type, Date.parse(signal.timestamp), source, JSON.stringify(signal)).changes;
      }
      return added;
    };
    // Within a page's transaction (its checks and its signal), no savepoint of its own.
    return this.db.inTransaction ? run() : this.atomically(run);
  }

  atomically<T>(work: () => T): T {
    return this.inTransaction.immediate(work) as T;
  }

  seen(identity: string, key: string, windowMs: number, now: number): boolean {
    const row = this.statements.seenGet.get(identity, key) as { at: number } | undefined;
    const recent = row !== undefined && row.at > now - windowMs;
    if (!recent) this.statements.seenSet.run(identity, key, now);
    return recent;
  }

  admit(identity: string, n: number, cap: number, now: number): boolean {
    return n <= cap && this.statements.admit.run({ identity, minute: Math.floor(now / 60_000), n, cap }).changes === 1;
  }

  countDropped(day: string, n: number): void {
    this.rollups.countDropped(day, n);
  }

  /** Copies what the WAL holds into the database file, as far as no reader needs it still. */
  checkpoint(): void {
    this.db.pragma("wal_checkpoint(PASSIVE)");
  }

  /** Folds the signals stored since the last fold into the analytics totals; returns how many. */
  fold(): number {
    return this.rollups.fold();
  }

  /**
   * Takes up to `limit` signals due for sending, leased for `leaseMs`: another process takes only
   * signals nobody holds, and a process that dies holding some lets them go when the lease ends.
   */
  claim(limit: number, now: number, leaseMs: number): { seq: number; signal: Signal; attempts: number }[] {
    const take = this.db.transaction(() => {
      const rows = this.statements.claim.all(now, now, limit) as Pending[];
      for (const row of rows) this.statements.lease.run(now + leaseMs, row.seq);
      return rows;
    });
    return take.immediate().map((row) => ({ seq: row.seq, signal: JSON.parse(row.body) as Signal, attempts: row.attempts }));
  }

  markSent(seqs: readonly number[], now: number): void {
    this.db.transaction(() => {
      for (const seq of seqs) this.statements.sent.run(now, seq);
    }).immediate();
  }

  retryLater(seqs: readonly number[], at: number): void {
    this.db.transaction(() => {
      for (const seq of seqs) this.statements.retry.run(at, seq);
    }).immediate();
  }

  pendingCount(): number {
    return (this.statements.pending.get() as { n: number }).n;
  }

  /** When the oldest signal still waiting to be sent happened (ms); null when none waits. */
  oldestPendingAt(): number | null {
    return (this.statements.oldestPending.get() as number | undefined) ?? null;
  }

  /**
   * Removes what is older than `cutoff` (milliseconds): sent signals, and every signal when
   * nothing forwards them; the daily totals of days before it; the click memory and the
   * per-minute counts from before `seenBefore`.
   */
  prune(cutoff: number, options: { forwarding: boolean; seenBefore: number }): number {
    return this.atomically(() => {
      // What is about to be deleted is counted first: no signal leaves uncounted.
      this.rollups.fold();
      const removed = options.forwarding
        ? this.db.prepare("DELETE FROM signals WHERE at < ? AND sent_at IS NOT NULL").run(cutoff).changes
        : this.db.prepare("DELETE FROM signals WHERE at < ?").run(cutoff).changes;
      this.rollups.afterSignalsDeleted();
      this.rollups.pruneBefore(dayOf(cutoff));
      this.db.prepare("DELETE FROM seen WHERE at < ?").run(options.seenBefore);
      this.db.prepare("DELETE FROM minute_counts WHERE minute < ?").run(Math.floor(options.seenBefore / 60_000));
      return removed;
    });
  }

  /**
   * Keeps at most `maxRows` signals: the oldest (first stored) beyond it are deleted, sent or not,
   * after being folded into the totals, and counted as evicted on `now`'s day for /analytics.
   * Returns how many went.
   */
  trim(maxRows: number, now: number): number {
    // Rows are numbered in the order stored, so everything up to max(seq) - maxRows is the oldest
    // and what is left is at most maxRows rows, found through the primary key without a count.
    const last = (this.db.prepare("SELECT max(seq) FROM signals").pluck().get() as number | null) ?? 0;
    if (last <= maxRows) return 0;
    return this.atomically(() => {
      this.rollups.fold();
      const evicted = this.db.prepare("DELETE FROM signals WHERE seq <= (SELECT max(seq) FROM signals) - ?").run(maxRows).changes;
      if (evicted > 0) {
        this.rollups.countEvicted(dayOf(now), evicted);
        this.rollups.afterSignalsDeleted();
      }
      return evicted;
    });
  }

  /** A random secret of this store, made on first use and shared by every process that opens it. */
  secret(name: string): string {
    this.db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)").run(name, randomBytes(32).toString("base64url"));
    return (this.db.prepare("SELECT value FROM meta WHERE key = ?").get(name) as { value: string }).value;
  }

  /** The outbox's rows after `seq`, in order (the shared totals' fold). */
  rowsAfter(seq: number, limit: number): { seq: number; at: number; source: string; body: string }[] {
    return this.db.prepare("SELECT seq, at, source, body FROM signals WHERE seq > ? ORDER BY seq LIMIT ?").all(seq, limit) as {
      seq: number;
      at: number;
      source: string;
      body: string;
    }[];
  }

  lastSeq(): number {
    return (this.db.prepare("SELECT coalesce(max(seq), 0) FROM signals").pluck().get() as number) ?? 0;
  }

  /** Every stored signal in the order stored (tests, the one-off import). */
  all(): { signal: Signal; source: string; sentAt: number | null }[] {
    return (this.db.prepare("SELECT body, source, sent_at FROM signals ORDER BY seq").all() as { body: string; source: string; sent_at: number | null }[]).map(
      (row) => ({ signal: JSON.parse(row.body) as Signal, source: row.source, sentAt: row.sent_at }),
    );
  }

  /** The analytics of the days `from`..`to` (ISO days), with every stored signal counted. */
  report(from: string, to: string, limit: number): AnalyticsReport {
    return this.rollups.report(from, to, limit);
  }

  close(): void {
    this.db.close();
  }
}
