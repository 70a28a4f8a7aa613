import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { Signal } from "./model.server";

/** One row of a ranked table of `/analytics`. */
export interface QueryRow {
  query: string;
  searches: number;
  zeroResults: number;
  clicks: number;
  /** Mean 1-based position of the clicked results; null without clicks. */
  meanPosition: number | null;
}
export interface ItemRow {
  item: string;
  title: string;
  count: number;
}
export interface AnalyticsReport {
  from: string;
  to: string;
  totals: { searches: number; zeroResults: number; clicks: number; meanPosition: number | null; views: number; exports: number; dropped: number };
  perDay: { day: string; searches: number }[];
  topQueries: QueryRow[];
  zeroResultQueries: QueryRow[];
  mostViewed: ItemRow[];
  mostExported: ItemRow[];
}

/**
 * What `/analytics` and the forwarder need of the signals kept by the portal. SQLite by default;
 * replicas that want one shared view plug in a shared store behind the same calls.
 */
export interface SignalStore {
  /** Stores signals not stored yet (by id); returns how many were new. */
  insert(signals: readonly Signal[], source: "server" | "client"): number;
  /** Whether `key` was seen for `identity` within `windowMs`; marks it seen now either way. */
  seen(identity: string, key: string, windowMs: number, now: number): boolean;
  countDropped(day: string, n: number): void;
  report(from: string, to: string, limit: number): AnalyticsReport;
}

/** Click actions that are an item's export (spec §7 "Analytics calls"). */
export const EXPORT_ACTIONS = new Set(["pdp_export", "bom_export", "asset_bom_export", "pm_bom_export", "where_used_asset_export", "where_used_pm_export"]);

export const dayOf = (timestamp: string | number): string => new Date(timestamp).toISOString().slice(0, 10);

interface Pending {
  seq: number;
  body: string;
  attempts: number;
}

/**
 * The outbox and the analytics store in one SQLite file of their own (never the catalogue, which
 * imports replace). Each signal is a row, pending until the forwarder has delivered it; daily
 * totals per query and per item are kept up to date as signals arrive, so `/analytics` reads a few
 * thousand rows rather than every signal of the period.
 *
 * Several worker processes open the same file: WAL lets them write side by side, and a batch is
 * claimed in an immediate transaction, so no two workers send the same signal.
 */
export class SqliteSignalStore implements SignalStore {
  readonly db: Database.Database;
  private readonly statements;

  constructor(readonly file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = NORMAL");
    this.db.pragma("busy_timeout = 5000");
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
      CREATE TABLE IF NOT EXISTS daily_queries (
        day TEXT NOT NULL, query TEXT NOT NULL,
        searches INTEGER NOT NULL DEFAULT 0, zero INTEGER NOT NULL DEFAULT 0,
        clicks INTEGER NOT NULL DEFAULT 0, position_sum INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (day, query)
      ) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS daily_items (
        day TEXT NOT NULL, item TEXT NOT NULL, title TEXT NOT NULL DEFAULT '',
        views INTEGER NOT NULL DEFAULT 0, exports INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (day, item)
      ) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS daily_totals (
        day TEXT PRIMARY KEY,
        searches INTEGER NOT NULL DEFAULT 0, zero INTEGER NOT NULL DEFAULT 0,
        clicks INTEGER NOT NULL DEFAULT 0, position_sum INTEGER NOT NULL DEFAULT 0,
        views INTEGER NOT NULL DEFAULT 0, exports INTEGER NOT NULL DEFAULT 0, dropped INTEGER NOT NULL DEFAULT 0
      ) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS seen (identity TEXT NOT NULL, key TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (identity, key)) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS seen_at ON seen(at);
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    `);
    const s = (sql: string) => this.db.prepare(sql);
    this.statements = {
      insert: s("INSERT OR IGNORE INTO signals (id, type, at, source, body) VALUES (?, ?, ?, ?, ?)"),
      query: s(`INSERT INTO daily_queries (day, query, searches, zero, clicks, position_sum) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT DO UPDATE SET searches = searches + excluded.searches, zero = zero + excluded.zero,
          clicks = clicks + excluded.clicks, position_sum = position_sum + excluded.position_sum`),
      item: s(`INSERT INTO daily_items (day, item, title, views, exports) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT DO UPDATE SET views = views + excluded.views, exports = exports + excluded.exports,
          title = CASE WHEN excluded.title != '' THEN excluded.title ELSE title END`),
      total: s(`INSERT INTO daily_totals (day, searches, zero, clicks, position_sum, views, exports, dropped) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT DO UPDATE SET searches = searches + excluded.searches, zero = zero + excluded.zero, clicks = clicks + excluded.clicks,
          position_sum = position_sum + excluded.position_sum, views = views + excluded.views, exports = exports + excluded.exports,
          dropped = dropped + excluded.dropped`),
      seenGet: s("SELECT at FROM seen WHERE identity = ? AND key = ?"),
      seenSet: s("INSERT INTO seen (identity, key, at) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET at = excluded.at"),
      claim: s("SELECT seq, body, attempts FROM signals WHERE sent_at IS NULL AND next_at <= ? AND claimed_until <= ? ORDER BY seq LIMIT ?"),
      lease: s("UPDATE signals SET claimed_until = ? WHERE seq = ?"),
      sent: s("UPDATE signals SET sent_at = ?, claimed_until = 0 WHERE seq = ?"),
      retry: s("UPDATE signals SET attempts = attempts + 1, next_at = ?, claimed_until = 0 WHERE seq = ?"),
      pending: s("SELECT count(*) AS n FROM signals WHERE sent_at IS NULL"),
    };
  }

  insert(signals: readonly Signal[], source: "server" | "client"): number {
    const run = this.db.transaction(() => {
      let added = 0;
      for (const signal of signals) {
        const at = Date.parse(signal.timestamp);
        if (this.statements.insert.run(signal.id, signal.type, at, source, JSON.stringify(signal)).changes === 0) continue;
        added++;
        this.rollUp(signal, source, dayOf(at));
      }
      return added;
    });
    return run.immediate();
  }

  /** Adds a new signal to the daily totals `/analytics` reads. */
  private rollUp(signal: Signal, source: "server" | "client", day: string): void {
    const { query, item, total } = this.statements;
    if (signal.type === "search") {
      const zero = signal.data.numResults === 0 ? 1 : 0;
      query.run(day, signal.data.query.trim().toLowerCase(), 1, zero, 0, 0);
      total.run(day, 1, zero, 0, 0, 0, 0, 0);
    } else if (signal.type === "click" && signal.data.action === "result" && signal.data.position != null) {
      const position = signal.data.position + 1;
      query.run(day, (signal.data.query ?? "").trim().toLowerCase(), 0, 0, 1, position);
      total.run(day, 0, 0, 1, position, 0, 0, 0);
    } else if (signal.type === "click" && EXPORT_ACTIONS.has(signal.data.action)) {
      item.run(day, signal.data.itemNumber ?? signal.data.docId, signal.data.title ?? "", 0, 1);
      total.run(day, 0, 0, 0, 0, 0, 1, 0);
    } else if (signal.type === "view" && source === "server") {
      // A browser's view signal carries the time spent on a view the server has already counted.
      item.run(day, signal.data.itemNumber ?? signal.data.docId, signal.data.title ?? "", 1, 0);
      total.run(day, 0, 0, 0, 0, 1, 0, 0);
    }
  }

  seen(identity: string, key: string, windowMs: number, now: number): boolean {
    const row = this.statements.seenGet.get(identity, key) as { at: number } | undefined;
    const recent = row !== undefined && row.at > now - windowMs;
    if (!recent) this.statements.seenSet.run(identity, key, now);
    return recent;
  }

  countDropped(day: string, n: number): void {
    this.statements.total.run(day, 0, 0, 0, 0, 0, 0, n);
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

  /**
   * Removes what is older than `cutoff` (milliseconds): sent signals, and every signal when
   * nothing forwards them; the daily totals of days before it; and click memory past its window.
   */
  prune(cutoff: number, options: { forwarding: boolean; seenBefore: number }): number {
    const day = dayOf(cutoff);
    return this.db.transaction(() => {
      const removed = options.forwarding
        ? this.db.prepare("DELETE FROM signals WHERE at < ? AND sent_at IS NOT NULL").run(cutoff).changes
        : this.db.prepare("DELETE FROM signals WHERE at < ?").run(cutoff).changes;
      for (const table of ["daily_queries", "daily_items", "daily_totals"]) this.db.prepare(`DELETE FROM ${table} WHERE day < ?`).run(day);
      this.db.prepare("DELETE FROM seen WHERE at < ?").run(options.seenBefore);
      return removed;
    }).immediate();
  }

  /** A random secret of this store, made on first use and shared by every process that opens it. */
  secret(name: string): string {
    this.db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)").run(name, randomBytes(32).toString("base64url"));
    return (this.db.prepare("SELECT value FROM meta WHERE key = ?").get(name) as { value: string }).value;
  }

  /** Every stored signal in the order stored (tests, the one-off import). */
  all(): { signal: Signal; source: string; sentAt: number | null }[] {
    return (this.db.prepare("SELECT body, source, sent_at FROM signals ORDER BY seq").all() as { body: string; source: string; sent_at: number | null }[]).map(
      (row) => ({ signal: JSON.parse(row.body) as Signal, source: row.source, sentAt: row.sent_at }),
    );
  }

  report(from: string, to: string, limit: number): AnalyticsReport {
    const t = this.db
      .prepare(
        `SELECT coalesce(sum(searches),0) s, coalesce(sum(zero),0) z, coalesce(sum(clicks),0) c, coalesce(sum(position_sum),0) p,
           coalesce(sum(views),0) v, coalesce(sum(exports),0) e, coalesce(sum(dropped),0) d FROM daily_totals WHERE day BETWEEN ? AND ?`,
      )
      .get(from, to) as Record<"s" | "z" | "c" | "p" | "v" | "e" | "d", number>;
    const perDay = this.db.prepare("SELECT day, searches FROM daily_totals WHERE day BETWEEN ? AND ? ORDER BY day").all(from, to) as {
      day: string;
      searches: number;
    }[];
    const queries = (order: string, having: string) =>
      (
        this.db
          .prepare(
            `SELECT query, sum(searches) s, sum(zero) z, sum(clicks) c, sum(position_sum) p FROM daily_queries
             WHERE day BETWEEN ? AND ? AND query != '' GROUP BY query HAVING ${having} ORDER BY ${order} DESC, query LIMIT ?`,
          )
          .all(from, to, limit) as { query: string; s: number; z: number; c: number; p: number }[]
      ).map((r) => ({ query: r.query, searches: r.s, zeroResults: r.z, clicks: r.c, meanPosition: r.c ? r.p / r.c : null }));
    const items = (column: "views" | "exports") =>
      (
        this.db
          .prepare(
            `SELECT item, max(title) title, sum(${column}) n FROM daily_items WHERE day BETWEEN ? AND ?
             GROUP BY item HAVING n > 0 ORDER BY n DESC, item LIMIT ?`,
          )
          .all(from, to, limit) as { item: string; title: string; n: number }[]
      ).map((r) => ({ item: r.item, title: r.title, count: r.n }));
    return {
      from,
      to,
      totals: { searches: t.s, zeroResults: t.z, clicks: t.c, meanPosition: t.c ? t.p / t.c : null, views: t.v, exports: t.e, dropped: t.d },
      perDay,
      topQueries: queries("s", "s > 0"),
      zeroResultQueries: queries("z", "z > 0"),
      mostViewed: items("views"),
      mostExported: items("exports"),
    };
  }

  close(): void {
    this.db.close();
  }
}
