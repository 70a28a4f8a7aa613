import { randomBytes } from "node:crypto";
import type pg from "pg";
import { inTransaction, type Migration } from "~/lib/postgres.server";
import type { Signal } from "./model.server";
import { addDays, contributionOf, dayOf, PERIODS, type AnalyticsReport } from "./rollup.server";
import type { OutboxReader, RepeatCheck } from "./shared.server";

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
  // Running totals of the last 7, 30 and 90 days ending on analytics_period_end.day, as Rollups keeps in SQLite (decision 040).
  {
    id: "003-analytics-periods",
    sql: `
      CREATE TABLE IF NOT EXISTS analytics_period_end (one INT PRIMARY KEY CHECK (one = 1), day TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS analytics_period_queries (
        span INT NOT NULL, query TEXT NOT NULL,
        searches BIGINT NOT NULL DEFAULT 0, zero BIGINT NOT NULL DEFAULT 0, clicks BIGINT NOT NULL DEFAULT 0, position_sum BIGINT NOT NULL DEFAULT 0,
        PRIMARY KEY (span, query));
      CREATE INDEX IF NOT EXISTS analytics_period_queries_searches ON analytics_period_queries (span, searches DESC, query);
      CREATE INDEX IF NOT EXISTS analytics_period_queries_zero ON analytics_period_queries (span, zero DESC, query);
      CREATE TABLE IF NOT EXISTS analytics_period_items (
        span INT NOT NULL, item TEXT NOT NULL, title TEXT NOT NULL DEFAULT '',
        views BIGINT NOT NULL DEFAULT 0, exports BIGINT NOT NULL DEFAULT 0,
        PRIMARY KEY (span, item));
      CREATE INDEX IF NOT EXISTS analytics_period_items_views ON analytics_period_items (span, views DESC, item);
      CREATE INDEX IF NOT EXISTS analytics_period_items_exports ON analytics_period_items (span, exports DESC, item);
      -- Empty periods ending before the first daily totals are exact; the upkeep moves them up a day at a time.
      INSERT INTO analytics_period_end (one, day)
        SELECT 1, to_char(coalesce(min(day)::date - 1, (now() AT TIME ZONE 'UTC')::date), 'YYYY-MM-DD') FROM analytics_days
        ON CONFLICT (one) DO NOTHING;`,
  },
];

const ADD_QUERY = `ON CONFLICT (span, query) DO UPDATE SET searches = analytics_period_queries.searches + excluded.searches,
  zero = analytics_period_queries.zero + excluded.zero, clicks = analytics_period_queries.clicks + excluded.clicks,
  position_sum = analytics_period_queries.position_sum + excluded.position_sum`;
const ADD_ITEM = `ON CONFLICT (span, item) DO UPDATE SET views = analytics_period_items.views + excluded.views,
  exports = analytics_period_items.exports + excluded.exports, title = greatest(analytics_period_items.title, excluded.title)`;

const FOLD_BATCH = 5000;
/**
 * The limit of a statement of the upkeep (a day of rows added to or taken off the periods): it is
 * background work, and the pool's limit of a page's statement could fail the same day forever on a
 * slow database.
 */
const UPKEEP_TIMEOUT_MS = 120_000;
/** A statement of the upkeep, with its limit (pg reads `query_timeout` from a query's config; its types do not list it). */
const upkeepStatement = (text: string, values: unknown[]): pg.QueryConfig => Object.assign({ text, values }, { query_timeout: UPKEEP_TIMEOUT_MS });

/**
 * The tables and statements of what replicas share of the usage signals in PostgreSQL (the
 * SharedSignals port over them is PgSharedSignals, shared-pg.server.ts): the key of the signals
 * cookie (when no SESSION_SECRET gives one), the repeat check (a visitor's pages reach every
 * replica: a reload on another is still the click already counted), and the totals `/analytics`
 * reads: daily, and running per period of 7, 30 and 90 days as Rollups keeps them in SQLite (the
 * period totals equal the daily totals summed over their days; decision 040). The per-minute cap
 * of a flood stays each replica's own. Each replica keeps its own outbox (SQLite) and forwarding to
 * Fusion; its background fold adds its new signals to the shared totals, under the outbox's mark
 * in the same transaction, so each signal counts once; its background upkeep moves the periods.
 */
export class PgSignalTables {
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
        // A fold and a move of the periods go one after the other: the fold adds to the periods that its days are in.
        const end = (await client.query<{ day: string }>("SELECT day FROM analytics_period_end FOR SHARE")).rows[0]?.day ?? null;
        await this.add(client, rows, end);
        await client.query("UPDATE analytics_folds SET folded_through = $2 WHERE outbox = $1", [outbox, rows.at(-1)!.seq]);
        return rows.length;
      });
      total += n;
      if (n < FOLD_BATCH) return total;
    }
  }

  /** Sums the rows' contributions per day and query, day and item, day; then one upsert per table. */
  private async add(client: pg.PoolClient, rows: { at: number; source: string; body: string }[], end: string | null): Promise<void> {
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
    // Rows in key order: two replicas folding at once lock the rows they share in the same order.
    const columns = <T extends unknown[]>(list: T[]) => {
      const sorted = [...list].sort((a, b) => (`${a[0]}\u0000${a[1]}` < `${b[0]}\u0000${b[1]}` ? -1 : 1));
      return list[0]!.map((_, i) => sorted.map((row) => row[i]));
    };
    if (end !== null) await this.addToPeriods(client, end, [...queries.values()], [...items.values()], columns);
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

  /** Adds a fold's rows of the days within a period (the days up to `end`) to that period's totals. */
  private async addToPeriods(
    client: pg.PoolClient,
    end: string,
    queries: [string, string, number, number, number, number][],
    items: [string, string, string, number, number][],
    columns: <T extends unknown[]>(list: T[]) => unknown[][],
  ): Promise<void> {
    const periodQueries = new Map<string, [number, string, number, number, number, number]>();
    const periodItems = new Map<string, [number, string, string, number, number]>();
    for (const span of PERIODS) {
      const first = addDays(end, 1 - span);
      for (const [day, query, ...counts] of queries) {
        if (day < first || day > end) continue;
        const row = periodQueries.get(`${span}\u0000${query}`) ?? [span, query, 0, 0, 0, 0];
        counts.forEach((n, i) => ((row[2 + i] as number) += n));
        periodQueries.set(`${span}\u0000${query}`, row);
      }
      for (const [day, item, title, views, exports] of items) {
        if (day < first || day > end) continue;
        const row = periodItems.get(`${span}\u0000${item}`) ?? [span, item, "", 0, 0];
        periodItems.set(`${span}\u0000${item}`, [span, item, title > row[2] ? title : row[2], row[3] + views, row[4] + exports]);
      }
    }
    if (periodQueries.size) {
      await client.query(
        `INSERT INTO analytics_period_queries (span, query, searches, zero, clicks, position_sum)
         SELECT * FROM unnest($1::int[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[]) ${ADD_QUERY}`,
        columns([...periodQueries.values()]),
      );
    }
    if (periodItems.size) {
      await client.query(
        `INSERT INTO analytics_period_items (span, item, title, views, exports)
         SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::bigint[], $5::bigint[]) ${ADD_ITEM}`,
        columns([...periodItems.values()]),
      );
    }
  }

  /** Adds (sign 1) or takes off (sign -1) the daily totals of `from`..`to` to the period of `span` days; what comes to nothing goes. */
  private async shift(client: pg.PoolClient, span: number, from: string, to: string, sign: 1 | -1): Promise<void> {
    if (from > to) return;
    await client.query(
      upkeepStatement(
        `INSERT INTO analytics_period_queries (span, query, searches, zero, clicks, position_sum)
       SELECT $1, query, $2 * sum(searches), $2 * sum(zero), $2 * sum(clicks), $2 * sum(position_sum)
       FROM analytics_queries WHERE day BETWEEN $3 AND $4 GROUP BY query ORDER BY query ${ADD_QUERY}`,
        [span, sign, from, to],
      ),
    );
    await client.query(
      upkeepStatement(
        `INSERT INTO analytics_period_items (span, item, title, views, exports)
       SELECT $1, item, max(title), $2 * sum(views), $2 * sum(exports)
       FROM analytics_items WHERE day BETWEEN $3 AND $4 GROUP BY item ORDER BY item ${ADD_ITEM}`,
        [span, sign, from, to],
      ),
    );
    if (sign === 1) return;
    // Only rows the days taken off touched can have come down to nothing.
    await client.query(
      upkeepStatement(
        `DELETE FROM analytics_period_queries WHERE span = $1 AND searches = 0 AND zero = 0 AND clicks = 0
       AND query IN (SELECT query FROM analytics_queries WHERE day BETWEEN $2 AND $3)`,
        [span, from, to],
      ),
    );
    await client.query(
      upkeepStatement(
        `DELETE FROM analytics_period_items WHERE span = $1 AND views = 0 AND exports = 0
       AND item IN (SELECT item FROM analytics_items WHERE day BETWEEN $2 AND $3)`,
        [span, from, to],
      ),
    );
  }

  /**
   * Moves the shared periods one day towards `today`, in one transaction (never back); returns
   * whether there is more to do. They start (migration 003), empty, on the day before the first daily totals.
   * The background upkeep's work, as Rollups.step is for SQLite.
   */
  async step(today: string): Promise<boolean> {
    const seen = (await this.pool.query<{ day: string }>("SELECT day FROM analytics_period_end")).rows[0]?.day;
    if (seen !== undefined && seen >= today) return false;
    return inTransaction(this.pool, async (client) => {
      // The row lock puts the replicas' moves, folds and prunes one after another.
      const end = (await client.query<{ day: string }>("SELECT day FROM analytics_period_end FOR UPDATE")).rows[0]!.day;
      if (end >= today) return false;
      const next = addDays(end, 1);
      for (const span of PERIODS) {
        const leaving = addDays(end, 1 - span);
        await this.shift(client, span, leaving, leaving, -1);
        await this.shift(client, span, next, next, 1);
      }
      await client.query("UPDATE analytics_period_end SET day = $1", [next]);
      return next < today;
    });
  }

  /**
   * The analytics of the days `from`..`to`. The last 7, 30 or 90 days are read from the period
   * totals as they stand (the days they cover are the report's `from` and `to`); any other range
   * is summed from the daily totals of every replica.
   */
  async report(from: string, to: string, limit: number): Promise<AnalyticsReport> {
    return inTransaction(this.pool, async (client) => {
      // One snapshot: the totals and the tables of a page see the same signals.
      await client.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
      const span = Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
      const end = (await client.query<{ day: string }>("SELECT day FROM analytics_period_end")).rows[0]?.day;
      const byPeriod = (PERIODS as readonly number[]).includes(span) && end !== undefined && end <= to;
      if (byPeriod) [from, to] = [addDays(end, 1 - span), end];
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
            byPeriod
              ? `SELECT query, searches s, zero z, clicks c, position_sum p FROM analytics_period_queries
                 WHERE span = $1 AND ${column} > 0 AND query <> '' ORDER BY ${column} DESC, query LIMIT $2`
              : `SELECT query, sum(searches) s, sum(zero) z, sum(clicks) c, sum(position_sum) p FROM analytics_queries
                 WHERE day BETWEEN $1 AND $2 AND query <> '' GROUP BY query HAVING sum(${column}) > 0 ORDER BY sum(${column}) DESC, query LIMIT $3`,
            byPeriod ? [span, limit] : [from, to, limit],
          )
        ).rows.map((r) => ({ query: r.query, searches: Number(r.s), zeroResults: Number(r.z), clicks: Number(r.c), meanPosition: Number(r.c) ? Number(r.p) / Number(r.c) : null }));
      const items = async (column: "views" | "exports") =>
        (
          await client.query<{ item: string; title: string; n: string }>(
            byPeriod
              ? `SELECT item, title, ${column} n FROM analytics_period_items WHERE span = $1 AND ${column} > 0 ORDER BY ${column} DESC, item LIMIT $2`
              : `SELECT item, max(title) title, sum(${column}) n FROM analytics_items WHERE day BETWEEN $1 AND $2
                 GROUP BY item HAVING sum(${column}) > 0 ORDER BY sum(${column}) DESC, item LIMIT $3`,
            byPeriod ? [span, limit] : [from, to, limit],
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
    await inTransaction(this.pool, async (client) => {
      // What leaves the daily totals leaves the periods it is in (none, once the periods are up to date at 90 days' retention).
      const end = (await client.query<{ day: string }>("SELECT day FROM analytics_period_end FOR UPDATE")).rows[0]?.day;
      if (end !== undefined) {
        const last = addDays(day, -1) < end ? addDays(day, -1) : end;
        for (const span of PERIODS) await this.shift(client, span, addDays(end, 1 - span), last, -1);
      }
      for (const table of ["analytics_queries", "analytics_items", "analytics_days"]) {
        await client.query(upkeepStatement(`DELETE FROM ${table} WHERE day < $1`, [day]));
      }
    });
    await this.pool.query("DELETE FROM signal_seen WHERE at < $1", [seenBefore]);
  }
}
