import type Database from "better-sqlite3";
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
  totals: { searches: number; zeroResults: number; clicks: number; meanPosition: number | null; views: number; exports: number; dropped: number; evicted: number };
  perDay: { day: string; searches: number }[];
  topQueries: QueryRow[];
  zeroResultQueries: QueryRow[];
  mostViewed: ItemRow[];
  mostExported: ItemRow[];
}

/** The periods `/analytics` offers (days up to today): each has running totals of its own. */
export const PERIODS = [7, 30, 90] as const;

/** Click actions that are an item's export (spec §7 "Analytics calls"). */
export const EXPORT_ACTIONS = new Set(["pdp_export", "bom_export", "asset_bom_export", "pm_bom_export", "where_used_asset_export", "where_used_pm_export"]);

export const dayOf = (timestamp: string | number): string => new Date(timestamp).toISOString().slice(0, 10);
export const addDays = (day: string, n: number): string => dayOf(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000);
const daysFrom = (from: string, to: string): number => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

/** What one signal adds to the analytics of its day: to a query's counts, to an item's, or nothing. */
interface Contribution {
  query?: { query: string; searches: number; zero: number; clicks: number; positionSum: number };
  item?: { item: string; title: string; views: number; exports: number };
}

const normalised = (query: string | undefined) => (query ?? "").trim().toLowerCase();

export function contributionOf(signal: Signal, source: string): Contribution {
  if (signal.type === "search") {
    return { query: { query: normalised(signal.data.query), searches: 1, zero: signal.data.numResults === 0 ? 1 : 0, clicks: 0, positionSum: 0 } };
  }
  if (signal.type === "click" && signal.data.action === "result" && signal.data.position != null) {
    return { query: { query: normalised(signal.data.query), searches: 0, zero: 0, clicks: 1, positionSum: signal.data.position + 1 } };
  }
  if (signal.type === "click" && EXPORT_ACTIONS.has(signal.data.action)) {
    return { item: { item: signal.data.itemNumber ?? signal.data.docId, title: signal.data.title ?? "", views: 0, exports: 1 } };
  }
  // A browser's view signal carries the time spent on a view the server has already counted.
  if (signal.type === "view" && source === "server") {
    return { item: { item: signal.data.itemNumber ?? signal.data.docId, title: signal.data.title ?? "", views: 1, exports: 0 } };
  }
  return {};
}

/**
 * What a fold adds to the rows of the totals tables, summed in memory first: one upsert per row
 * (a day and query, say), not one per signal.
 */
class Sums {
  private readonly rows = new Map<Database.Statement, Map<string, { key: (string | number)[]; title: string | null; counts: number[] }>>();

  add(statement: Database.Statement, key: (string | number)[], counts: number[], title: string | null = null): void {
    let rows = this.rows.get(statement);
    if (!rows) this.rows.set(statement, (rows = new Map()));
    const id = key.join("\u0000");
    const row = rows.get(id);
    if (!row) rows.set(id, { key, title, counts: [...counts] });
    else {
      counts.forEach((n, i) => (row.counts[i]! += n));
      if (title !== null && (row.title === null || title > row.title)) row.title = title;
    }
  }

  /** Runs each statement once per row: its key, the title where it has one, the counts. */
  write(): void {
    for (const [statement, rows] of this.rows) {
      for (const { key, title, counts } of rows.values()) statement.run(...key, ...(title === null ? [] : [title]), ...counts);
    }
  }
}

/**
 * The running totals `/analytics` reads, in the signals database beside the outbox rows:
 *
 * - daily totals per day, per day and query, per day and item (what any range is summed from);
 * - period totals per query and per item for each of {@link PERIODS}, the days ending at
 *   `periods_end`, so a page of the last 90 days reads its top 20 rows through an index instead
 *   of grouping hundreds of thousands of daily rows (a long tail of queries makes them many).
 *
 * Signals are folded in after they are stored, in order of their outbox row (`seq`), in one
 * transaction with the mark `folded_through`: a signal is counted once, by whichever process
 * folds it, and a restart goes on from the mark. The period totals always equal the sum of the
 * daily totals over their days: folding adds to both, moving `periods_end` a day later takes off
 * the days that leave and adds the day that comes in, and pruning takes off what it deletes.
 *
 * Moving the periods is the background upkeep's ({@link step}), one day a transaction (about
 * 30,000 rows a day at a plant group's volume, decision 040), never a page's: a report reads the
 * periods as they stand, and says which days they cover, so that the first report of a day, or
 * after an upgrade, costs what any other does.
 */
export class Rollups {
  private readonly s;

  constructor(private readonly db: Database.Database) {
    db.exec(`
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
      CREATE TABLE IF NOT EXISTS period_queries (
        span INTEGER NOT NULL, query TEXT NOT NULL,
        searches INTEGER NOT NULL DEFAULT 0, zero INTEGER NOT NULL DEFAULT 0,
        clicks INTEGER NOT NULL DEFAULT 0, position_sum INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (span, query)
      ) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS period_queries_searches ON period_queries(span, searches DESC, query);
      CREATE INDEX IF NOT EXISTS period_queries_zero ON period_queries(span, zero DESC, query);
      CREATE TABLE IF NOT EXISTS period_items (
        span INTEGER NOT NULL, item TEXT NOT NULL, title TEXT NOT NULL DEFAULT '',
        views INTEGER NOT NULL DEFAULT 0, exports INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (span, item)
      ) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS period_items_views ON period_items(span, views DESC, item);
      CREATE INDEX IF NOT EXISTS period_items_exports ON period_items(span, exports DESC, item);
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    `);
    // Signals deleted to keep the database within its cap (a column later than the table).
    const totals = db.prepare("SELECT name FROM pragma_table_info('daily_totals')").pluck().all() as string[];
    if (!totals.includes("evicted")) db.exec("ALTER TABLE daily_totals ADD COLUMN evicted INTEGER NOT NULL DEFAULT 0");
    // A database of an earlier version added each signal to the daily totals as it was stored.
    db.prepare("INSERT OR IGNORE INTO meta (key, value) SELECT 'folded_through', coalesce(max(seq), 0) FROM signals").run();
    const p = (sql: string) => db.prepare(sql);
    const addQuery = `ON CONFLICT DO UPDATE SET searches = searches + excluded.searches, zero = zero + excluded.zero,
      clicks = clicks + excluded.clicks, position_sum = position_sum + excluded.position_sum`;
    const addItem = `ON CONFLICT DO UPDATE SET views = views + excluded.views, exports = exports + excluded.exports,
      title = max(title, excluded.title)`;
    this.s = {
      meta: p("SELECT value FROM meta WHERE key = ?").pluck(),
      setMeta: p("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT DO UPDATE SET value = excluded.value"),
      lastSeq: p("SELECT seq FROM signals ORDER BY seq DESC LIMIT 1").pluck(),
      unfolded: p("SELECT seq, at, source, body FROM signals WHERE seq > ? ORDER BY seq LIMIT ?"),
      dailyQuery: p(`INSERT INTO daily_queries (day, query, searches, zero, clicks, position_sum) VALUES (?, ?, ?, ?, ?, ?) ${addQuery}`),
      dailyItem: p(`INSERT INTO daily_items (day, item, title, views, exports) VALUES (?, ?, ?, ?, ?) ${addItem}`),
      periodQuery: p(`INSERT INTO period_queries (span, query, searches, zero, clicks, position_sum) VALUES (?, ?, ?, ?, ?, ?) ${addQuery}`),
      periodItem: p(`INSERT INTO period_items (span, item, title, views, exports) VALUES (?, ?, ?, ?, ?) ${addItem}`),
      total: p(`INSERT INTO daily_totals (day, searches, zero, clicks, position_sum, views, exports, dropped) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT DO UPDATE SET searches = searches + excluded.searches, zero = zero + excluded.zero, clicks = clicks + excluded.clicks,
          position_sum = position_sum + excluded.position_sum, views = views + excluded.views, exports = exports + excluded.exports,
          dropped = dropped + excluded.dropped`),
      evicted: p("INSERT INTO daily_totals (day, evicted) VALUES (?, ?) ON CONFLICT DO UPDATE SET evicted = evicted + excluded.evicted"),
      // `WHERE true` tells SQLite's parser that ON CONFLICT is the upsert's, not a join's.
      shiftQueries: p(`INSERT INTO period_queries (span, query, searches, zero, clicks, position_sum)
        SELECT @span, query, @sign * sum(searches), @sign * sum(zero), @sign * sum(clicks), @sign * sum(position_sum)
        FROM daily_queries WHERE true AND day BETWEEN @from AND @to GROUP BY query ${addQuery}`),
      shiftItems: p(`INSERT INTO period_items (span, item, title, views, exports)
        SELECT @span, item, max(title), @sign * sum(views), @sign * sum(exports)
        FROM daily_items WHERE true AND day BETWEEN @from AND @to GROUP BY item ${addItem}`),
      // Only rows the days taken off touched can have come down to nothing: no scan of the whole period.
      dropQueries: p(`DELETE FROM period_queries WHERE span = @span AND searches = 0 AND zero = 0 AND clicks = 0
        AND query IN (SELECT query FROM daily_queries WHERE day BETWEEN @from AND @to)`),
      dropItems: p(`DELETE FROM period_items WHERE span = @span AND views = 0 AND exports = 0
        AND item IN (SELECT item FROM daily_items WHERE day BETWEEN @from AND @to)`),
      firstDay: p("SELECT min(day) FROM daily_totals").pluck(),
      // Only where there is none: a worker that opens the database as another starts moving the periods changes nothing.
      startPeriods: p("INSERT OR IGNORE INTO meta (key, value) VALUES ('periods_end', ?)"),
    };
    // A database of an earlier version (or one that has never had periods) has its periods start
    // before its first day here, in one write: a report never groups the daily rows of 90 days.
    const first = this.s.firstDay.get() as string | null;
    if (first !== null) this.s.startPeriods.run(addDays(first, -1));
  }

  private meta(key: string): string | null {
    return (this.s.meta.get(key) as string | undefined) ?? null;
  }

  /** The last day of the period totals; null before they are first made. */
  get periodsEnd(): string | null {
    return this.meta("periods_end");
  }

  /** Counts `n` signals dropped on `day` (they have no outbox row to fold). */
  countDropped(day: string, n: number): void {
    this.s.total.run(day, 0, 0, 0, 0, 0, 0, n);
  }

  /** Counts `n` signals deleted on `day` to keep the database within its cap (already folded). */
  countEvicted(day: string, n: number): void {
    this.s.evicted.run(day, n);
  }

  /** Folds the stored signals not folded yet into the totals, `batch` a transaction; returns how many. */
  fold(batch = 5000): number {
    let folded = 0;
    for (;;) {
      // Looked at without a lock first, so a page with nothing new to fold writes nothing.
      const last = (this.s.lastSeq.get() as number | undefined) ?? 0;
      if (last <= Number(this.meta("folded_through") ?? 0)) return folded;
      const n = this.db
        .transaction(() => {
          const through = Number(this.meta("folded_through") ?? 0);
          const rows = this.s.unfolded.all(through, batch) as { seq: number; at: number; source: string; body: string }[];
          const end = this.periodsEnd;
          const sums = new Sums();
          for (const row of rows) this.add(contributionOf(JSON.parse(row.body) as Signal, row.source), dayOf(row.at), end, sums);
          sums.write();
          if (rows.length) this.s.setMeta.run("folded_through", String(rows.at(-1)!.seq));
          return rows.length;
        })
        .immediate();
      folded += n;
      if (n === 0) return folded;
    }
  }

  private add({ query, item }: Contribution, day: string, end: string | null, sums: Sums): void {
    const spans = end === null ? [] : PERIODS.filter((span) => day <= end && day >= addDays(end, 1 - span));
    if (query) {
      const counts = [query.searches, query.zero, query.clicks, query.positionSum];
      sums.add(this.s.dailyQuery, [day, query.query], counts);
      for (const span of spans) sums.add(this.s.periodQuery, [span, query.query], counts);
      sums.add(this.s.total, [day], [...counts, 0, 0, 0]);
    }
    if (item) {
      sums.add(this.s.dailyItem, [day, item.item], [item.views, item.exports], item.title);
      for (const span of spans) sums.add(this.s.periodItem, [span, item.item], [item.views, item.exports], item.title);
      sums.add(this.s.total, [day], [0, 0, 0, 0, item.views, item.exports, 0]);
    }
  }

  /** Adds (sign 1) or takes off (sign -1) the daily totals of the days `from`..`to` to the period of `span` days. */
  private shift(span: number, from: string, to: string, sign: 1 | -1): void {
    if (from > to) return;
    this.s.shiftQueries.run({ span, sign, from, to });
    this.s.shiftItems.run({ span, sign, from, to });
    if (sign === -1) {
      this.s.dropQueries.run({ span, from, to });
      this.s.dropItems.run({ span, from, to });
    }
  }

  /**
   * Where the periods start: they end the day before the first daily totals (so they are empty,
   * and exact) and are moved up to today by {@link step}, a day at a time. Building them in one go
   * would be seconds of one transaction at 3,000,000 daily rows.
   */
  private startPeriods(today: string): string {
    const first = this.s.firstDay.get() as string | null;
    this.s.startPeriods.run(first === null || first > today ? today : addDays(first, -1));
    return this.periodsEnd!;
  }

  /**
   * Moves the periods one day towards `today` (never back: a process whose clock lags leaves them
   * be); returns whether there is more to do. The background upkeep's work: one transaction of
   * about a day of daily rows per period.
   */
  step(today: string): boolean {
    // Looked at without a lock first, so that the upkeep of an up-to-date store writes nothing.
    const seen = this.periodsEnd;
    if (seen !== null && seen >= today) return false;
    return this.db
      .transaction(() => {
        const end = this.periodsEnd ?? this.startPeriods(today);
        if (end >= today) return false;
        const next = addDays(end, 1);
        for (const span of PERIODS) {
          const leaving = addDays(end, 1 - span);
          this.shift(span, leaving, leaving, -1);
          this.shift(span, next, next, 1);
        }
        this.s.setMeta.run("periods_end", next);
        return next < today;
      })
      .immediate();
  }

  /** Deletes the daily totals of the days before `day`, taking them off the periods first (call in a transaction). */
  pruneBefore(day: string): void {
    const end = this.periodsEnd;
    if (end !== null) {
      const last = addDays(day, -1) < end ? addDays(day, -1) : end;
      for (const span of PERIODS) this.shift(span, addDays(end, 1 - span), last, -1);
    }
    for (const table of ["daily_queries", "daily_items", "daily_totals"]) this.db.prepare(`DELETE FROM ${table} WHERE day < ?`).run(day);
  }

  /** Keeps `folded_through` below the next row's seq when pruning deleted the newest rows (SQLite reuses their seqs). */
  afterSignalsDeleted(): void {
    const last = (this.s.lastSeq.get() as number | undefined) ?? 0;
    if (last < Number(this.meta("folded_through") ?? 0)) this.s.setMeta.run("folded_through", String(last));
  }

  /**
   * The analytics of the days `from`..`to`, with every stored signal folded in. A report of the
   * last 7, 30 or 90 days reads the period totals as they stand: when the upkeep has not moved
   * them to `to` yet (the first seconds of a day, the minutes after an upgrade), the report is of
   * the days they cover, and its `from` and `to` say so. Any other range sums the daily totals.
   */
  report(from: string, to: string, limit: number): AnalyticsReport {
    this.fold();
    const span = daysFrom(from, to) + 1;
    // One read transaction: the totals, the tables and the end of the periods of a page agree.
    return this.db.transaction(() => {
      const end = this.periodsEnd;
      if ((PERIODS as readonly number[]).includes(span) && end !== null && end <= to) return this.read(addDays(end, 1 - span), end, limit, span, true);
      return this.read(from, to, limit, span, false);
    })();
  }

  private read(from: string, to: string, limit: number, span: number, byPeriod: boolean): AnalyticsReport {
    const t = this.db
      .prepare(
        `SELECT coalesce(sum(searches),0) s, coalesce(sum(zero),0) z, coalesce(sum(clicks),0) c, coalesce(sum(position_sum),0) p,
           coalesce(sum(views),0) v, coalesce(sum(exports),0) e, coalesce(sum(dropped),0) d, coalesce(sum(evicted),0) x FROM daily_totals WHERE day BETWEEN ? AND ?`,
      )
      .get(from, to) as Record<"s" | "z" | "c" | "p" | "v" | "e" | "d" | "x", number>;
    const perDay = this.db.prepare("SELECT day, searches FROM daily_totals WHERE day BETWEEN ? AND ? ORDER BY day").all(from, to) as AnalyticsReport["perDay"];
    const queries = (column: "searches" | "zero") => {
      const sql = byPeriod
        ? `SELECT query, searches s, zero z, clicks c, position_sum p FROM period_queries
           WHERE span = @span AND ${column} > 0 AND query != '' ORDER BY ${column} DESC, query LIMIT @limit`
        : `SELECT query, sum(searches) s, sum(zero) z, sum(clicks) c, sum(position_sum) p FROM daily_queries
           WHERE day BETWEEN @from AND @to AND query != '' GROUP BY query HAVING sum(${column}) > 0 ORDER BY sum(${column}) DESC, query LIMIT @limit`;
      const rows = this.db.prepare(sql).all({ span, from, to, limit }) as { query: string; s: number; z: number; c: number; p: number }[];
      return rows.map((r) => ({ query: r.query, searches: r.s, zeroResults: r.z, clicks: r.c, meanPosition: r.c ? r.p / r.c : null }));
    };
    const items = (column: "views" | "exports") => {
      const sql = byPeriod
        ? `SELECT item, title, ${column} n FROM period_items WHERE span = @span AND ${column} > 0 ORDER BY ${column} DESC, item LIMIT @limit`
        : `SELECT item, max(title) title, sum(${column}) n FROM daily_items WHERE day BETWEEN @from AND @to
           GROUP BY item HAVING n > 0 ORDER BY n DESC, item LIMIT @limit`;
      const rows = this.db.prepare(sql).all({ span, from, to, limit }) as { item: string; title: string; n: number }[];
      return rows.map((r) => ({ item: r.item, title: r.title, count: r.n }));
    };
    return {
      from,
      to,
      totals: { searches: t.s, zeroResults: t.z, clicks: t.c, meanPosition: t.c ? t.p / t.c : null, views: t.v, exports: t.e, dropped: t.d, evicted: t.x },
      perDay,
      topQueries: queries("searches"),
      zeroResultQueries: queries("zero"),
      mostViewed: items("views"),
      mostExported: items("exports"),
    };
  }
}
