import { randomBytes } from "node:crypto";
import type pg from "pg";
import { inTransaction, type Migration } from "~/lib/postgres.server";
import type { Signal } from "./model.server";
import { contributionOf, dayOf, type AnalyticsReport } from "./rollup.server";

export const SIGNALS_MIGRATIONS: Migration[] = [
  {
    id: "001-signals",
    sql: `
      CREATE TABLE IF NOT EXISTS crib_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS signal_seen (identity TEXT NOT NULL, key TEXT NOT NULL, at BIGINT NOT NULL, PRIMARY KEY (identity, key));
      CREATE INDEX IF NOT EXISTS signal_seen_at ON signal_seen (at);
      CREATE TABLE IF NOT EXISTS analytics_queries (
        day TEXT NOT NULL, query TEXT NOT NULL,
        searches BIGINT NOT NULL DEFAULT 0, zero BIGINT NOT NULL DEFAULT 0, clicks BIGINT NOT NULL DEFAULT 0, position_sum BIGINT NOT NULL DEFAULT 0,
        PRIMARY KEY (day, query));
      CREATE TABLE IF NOT EXISTS analytics_items (
        day TEXT NOT NULL, item TEXT NOT NULL, title TEXT NOT NULL DEFAULT '',
        views BIGINT NOT NULL DEFAULT 0, exports BIGINT NOT NULL DEFAULT 0,
        PRIMARY KEY (day, item));
      CREATE TABLE IF NOT EXISTS analytics_days (
        day TEXT PRIMARY KEY,
        searches BIGINT NOT NULL DEFAULT 0, zero BIGINT NOT NULL DEFAULT 0, clicks BIGINT NOT NULL DEFAULT 0, position_sum BIGINT NOT NULL DEFAULT 0,
        views BIGINT NOT NULL DEFAULT 0, exports BIGINT NOT NULL DEFAULT 0, dropped BIGINT NOT NULL DEFAULT 0);
      CREATE TABLE IF NOT EXISTS analytics_folds (outbox TEXT PRIMARY KEY, folded_through BIGINT NOT NULL);`,
  },
  // Signals a replica removed to keep its signals.db within SIGNALS_MAX_ROWS (decision 023).
  { id: "002-analytics-evicted", sql: "ALTER TABLE analytics_days ADD COLUMN IF NOT EXISTS evicted BIGINT NOT NULL DEFAULT 0" },
];

export interface RepeatCheck {
  identity: string;
  /** What makes it the repeat of an earlier one (repeatKey in signals.server.ts). */
  key: string;
}

/** The rows of a replica's outbox the shared totals fold in: `seq` order, read from its SQLite file. */
export interface OutboxReader {
  rowsAfter(seq: number, limit: number): { seq: number; at: number; source: string; body: string }[];
  lastSeq(): number;
}

const FOLD_BATCH = 5000;

/**
 * The part of the usage signals that replicas share through PostgreSQL: the key of the signals
 * cookie (when no SESSION_SECRET gives one), the repeat check (a visitor's pages reach every
 * replica: a reload on another is still the click already counted), and the daily totals
 * `/analytics` reads. The per-minute cap of a flood stays each replica's own. Each replica keeps its own outbox
 * (SQLite) and forwarding to Fusion; its background fold adds its new signals to the shared
 * totals, under the outbox's mark in the same transaction, so each signal counts once.
 */
export class PgSharedSignals {
  constructor(private readonly pool: pg.Pool) {}

  /** A random secret made by the first replica that asks, the same for every replica after it. */
  async secret(name: string): Promise<string> {
    await this.pool.query("INSERT INTO crib_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING", [name, randomBytes(32).toString("base64url")]);
    const { rows } = await this.pool.query<{ value: string }>("SELECT value FROM crib_secrets WHERE name = $1", [name]);
    return rows[0]!.value;
  }

  /**
   * For each check in order, whether its key was seen for its identity within `windowMs`; it is
   * marked seen now when it was not.
   */
  async repeats(checks: readonly RepeatCheck[], windowMs: number, now: number): Promise<boolean[]> {
    const out: boolean[] = [];
    for (const check of checks) {
      const fresh = await this.pool.query({
        name: "signal-seen",
        text: `INSERT INTO signal_seen (identity, key, at) VALUES ($1, $2, $3)
          ON CONFLICT (identity, key) DO UPDATE SET at = excluded.at WHERE signal_seen.at <= $4 RETURNING 1`,
        values: [check.identity, check.key, now, now - windowMs],
      });
      out.push(fresh.rowCount === 0);
    }
    return out;
  }

  async countDropped(day: string, n: number): Promise<void> {
    await this.pool.query("INSERT INTO analytics_days (day, dropped) VALUES ($1, $2) ON CONFLICT (day) DO UPDATE SET dropped = analytics_days.dropped + excluded.dropped", [day, n]);
  }

  async countEvicted(day: string, n: number): Promise<void> {
    await this.pool.query("INSERT INTO analytics_days (day, evicted) VALUES ($1, $2) ON CONFLICT (day) DO UPDATE SET evicted = analytics_days.evicted + excluded.evicted", [day, n]);
  }

  /** Folds the outbox's signals after its mark into the shared totals; returns how many. */
  async fold(outbox: string, reader: OutboxReader): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await inTransaction(this.pool, async (client) => {
        await client.query("INSERT INTO analytics_folds (outbox, folded_through) VALUES ($1, 0) ON CONFLICT (outbox) DO NOTHING", [outbox]);
        // The row lock puts the folds of one outbox (the workers of one replica) one after another.
        const mark = await client.query<{ folded_through: string }>("SELECT folded_through FROM analytics_folds WHERE outbox = $1 FOR UPDATE", [outbox]);
        // SQLite hands out the seq of deleted newest rows again: a mark past the last row is moved back to it.
        const through = Math.min(Number(mark.rows[0]!.folded_through), reader.lastSeq());
        const rows = reader.rowsAfter(through, FOLD_BATCH);
        if (rows.length === 0) {
          if (through !== Number(mark.rows[0]!.folded_through)) await client.query("UPDATE analytics_folds SET folded_through = $2 WHERE outbox = $1", [outbox, through]);
          return 0;
        }
        await this.add(client, rows);
        await client.query("UPDATE analytics_folds SET folded_through = $2 WHERE outbox = $1", [outbox, rows.at(-1)!.seq]);
        return rows.length;
      });
      total += n;
      if (n < FOLD_BATCH) return total;
    }
  }

  /** Sums the rows' contributions per day and query, day and item, day; then one upsert per table. */
  private async add(client: pg.PoolClient, rows: { at: number; source: string; body: string }[]): Promise<void> {
    const queries = new Map<string, [string, string, number, number, number, number]>();
    const items = new Map<string, [string, string, string, number, number]>();
    const days = new Map<string, [string, number, number, number, number, number, number]>();
    for (const row of rows) {
      const day = dayOf(row.at);
      const { query, item } = contributionOf(JSON.parse(row.body) as Signal, row.source);
      const total = days.get(day) ?? [day, 0, 0, 0, 0, 0, 0];
      days.set(day, total);
      if (query) {
        const id = `${day}\u0000${query.query}`;
        const q = queries.get(id) ?? [day, query.query, 0, 0, 0, 0];
        queries.set(id, [day, query.query, q[2] + query.searches, q[3] + query.zero, q[4] + query.clicks, q[5] + query.positionSum]);
        total[1] += query.searches;
        total[2] += query.zero;
        total[3] += query.clicks;
        total[4] += query.positionSum;
      }
      if (item) {
        const id = `${day}\u0000${item.item}`;
        const i = items.get(id) ?? [day, item.item, "", 0, 0];
        items.set(id, [day, item.item, item.title > i[2] ? item.title : i[2], i[3] + item.views, i[4] + item.exports]);
        total[5] += item.views;
        total[6] += item.exports;
      }
    }
    const columns = <T extends unknown[]>(list: T[]) => list[0]!.map((_, i) => list.map((row) => row[i]));
    if (queries.size) {
      await client.query(
        `INSERT INTO analytics_queries (day, query, searches, zero, clicks, position_sum)
         SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[])
         ON CONFLICT (day, query) DO UPDATE SET searches = analytics_queries.searches + excluded.searches, zero = analytics_queries.zero + excluded.zero,
           clicks = analytics_queries.clicks + excluded.clicks, position_sum = analytics_queries.position_sum + excluded.position_sum`,
        columns([...queries.values()]),
      );
    }
    if (items.size) {
      await client.query(
        `INSERT INTO analytics_items (day, item, title, views, exports)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[])
         ON CONFLICT (day, item) DO UPDATE SET views = analytics_items.views + excluded.views, exports = analytics_items.exports + excluded.exports,
           title = greatest(analytics_items.title, excluded.title)`,
        columns([...items.values()]),
      );
    }
    await client.query(
      `INSERT INTO analytics_days (day, searches, zero, clicks, position_sum, views, exports)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[])
       ON CONFLICT (day) DO UPDATE SET searches = analytics_days.searches + excluded.searches, zero = analytics_days.zero + excluded.zero,
         clicks = analytics_days.clicks + excluded.clicks, position_sum = analytics_days.position_sum + excluded.position_sum,
         views = analytics_days.views + excluded.views, exports = analytics_days.exports + excluded.exports`,
      columns([...days.values()]),
    );
  }

  /** The analytics of the days `from`..`to`, summed from the daily totals of every replica. */
  async report(from: string, to: string, limit: number): Promise<AnalyticsReport> {
    return inTransaction(this.pool, async (client) => {
      // One snapshot: the totals and the tables of a page see the same signals.
      await client.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
      const t = (
        await client.query(
          `SELECT coalesce(sum(searches),0) s, coalesce(sum(zero),0) z, coalesce(sum(clicks),0) c, coalesce(sum(position_sum),0) p,
             coalesce(sum(views),0) v, coalesce(sum(exports),0) e, coalesce(sum(dropped),0) d, coalesce(sum(evicted),0) x
           FROM analytics_days WHERE day BETWEEN $1 AND $2`,
          [from, to],
        )
      ).rows[0] as Record<"s" | "z" | "c" | "p" | "v" | "e" | "d" | "x", string>;
      const perDay = (await client.query<{ day: string; searches: string }>("SELECT day, searches FROM analytics_days WHERE day BETWEEN $1 AND $2 ORDER BY day", [from, to])).rows;
      const queries = async (column: "searches" | "zero") =>
        (
          await client.query<{ query: string; s: string; z: string; c: string; p: string }>(
            `SELECT query, sum(searches) s, sum(zero) z, sum(clicks) c, sum(position_sum) p FROM analytics_queries
             WHERE day BETWEEN $1 AND $2 AND query <> '' GROUP BY query HAVING sum(${column}) > 0 ORDER BY sum(${column}) DESC, query LIMIT $3`,
            [from, to, limit],
          )
        ).rows.map((r) => ({ query: r.query, searches: Number(r.s), zeroResults: Number(r.z), clicks: Number(r.c), meanPosition: Number(r.c) ? Number(r.p) / Number(r.c) : null }));
      const items = async (column: "views" | "exports") =>
        (
          await client.query<{ item: string; title: string; n: string }>(
            `SELECT item, max(title) title, sum(${column}) n FROM analytics_items WHERE day BETWEEN $1 AND $2
             GROUP BY item HAVING sum(${column}) > 0 ORDER BY sum(${column}) DESC, item LIMIT $3`,
            [from, to, limit],
          )
        ).rows.map((r) => ({ item: r.item, title: r.title, count: Number(r.n) }));
      const clicks = Number(t.c);
      return {
        from,
        to,
        totals: { searches: Number(t.s), zeroResults: Number(t.z), clicks, meanPosition: clicks ? Number(t.p) / clicks : null, views: Number(t.v), exports: Number(t.e), dropped: Number(t.d), evicted: Number(t.x) },
        perDay: perDay.map((d) => ({ day: d.day, searches: Number(d.searches) })),
        topQueries: await queries("searches"),
        zeroResultQueries: await queries("zero"),
        mostViewed: await items("views"),
        mostExported: await items("exports"),
      };
    });
  }

  /** Removes the daily totals before `day` and the repeat memory from before `seenBefore`. */
  async prune(day: string, seenBefore: number): Promise<void> {
    for (const table of ["analytics_queries", "analytics_items", "analytics_days"]) await this.pool.query(`DELETE FROM ${table} WHERE day < $1`, [day]);
    await this.pool.query("DELETE FROM signal_seen WHERE at < $1", [seenBefore]);
  }
}
