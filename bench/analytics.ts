/**
 * npm run bench:analytics
 *
 * `/analytics` at a plant group's volume (issue 35, item 8): about 3,000,000 daily rows over 90 days
 * (32,000 distinct queries a day, 10,000 of them recurring with a Zipf-like head and 22,000 from a
 * tail of a million, plus 1,500 items a day), written straight into the daily totals tables, then
 * the report the page makes (`report()`, the real read path) timed for 7, 30 and 90 days:
 *
 * 1. SQLite (the default store): the first reports on a database without period totals (an
 *    upgrade), steady reports, the first reports of a new day (before the upkeep moves the
 *    periods), the first after a restart, and pruning a day at 90 days' retention; the background
 *    upkeep's steps (a day each); where the time goes, by statement, with the query plans.
 * 2. PostgreSQL (`DATABASE_URL`, when Debian's postgresql is installed; ANALYTICS_BENCH_PG=0 skips
 *    it): the shared totals' report for 7, 30 and 90 days at the same moments, the upkeep's steps
 *    and pruning. The daily rows are written before the migration that adds the periods, as an
 *    upgrade meets them.
 *
 * The daily rows are made once per day of the calendar and kept in bench/out/ (the SQLite file is
 * copied for each run); ANALYTICS_BENCH_DAYS and ANALYTICS_BENCH_QUERIES change the volume.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type Database from "better-sqlite3";
import pg from "pg";
import { createPool, migrate } from "../app/lib/postgres.server";
import { addDays, dayOf } from "../app/signals/rollup.server";
import { PgSignalTables, SIGNALS_MIGRATIONS } from "../app/signals/shared-pg-tables.server";
import { SqliteSignalStore } from "../app/signals/store.server";
import { startPostgres } from "../tests/scale/rig";
import { median, table } from "./lib";

const OUT = path.resolve("bench/out");
const DAYS = Number(process.env.ANALYTICS_BENCH_DAYS ?? 90);
const QUERIES = Number(process.env.ANALYTICS_BENCH_QUERIES ?? 32_000);
const HEAD = Math.min(10_000, QUERIES);
const ITEMS = 1500;
const TODAY = dayOf(Date.now());
const TOMORROW = addDays(TODAY, 1);
const PERIODS = [7, 30, 90] as const;
const LIMIT = 20;

fs.mkdirSync(OUT, { recursive: true });

/**
 * The rows of the daily totals, one SELECT per dialect from the same formulas: `d` days before
 * today, query `i` of the day (the head recurs every day, the tail strides through a million).
 */
const queryRows = (dayExpr: string, q: string) => `
  SELECT ${dayExpr} AS day,
    CASE WHEN i < ${HEAD} THEN 'part ' || i ELSE 'tail ' || ((i * 7919 + d * 104729) % 1000000) END AS query,
    CASE WHEN i < ${HEAD} THEN 1 + 3000 / (i + 1) ELSE 1 + (i % 3 = 0)::int END AS searches,
    CASE WHEN i < ${HEAD} THEN (i % 13 = 0)::int * (1 + 3000 / (i + 1)) / 4 ELSE (i % 11 = 0)::int END AS zero,
    CASE WHEN i < ${HEAD} THEN 1500 / (i + 1) ELSE (i % 5 = 0)::int END AS clicks,
    CASE WHEN i < ${HEAD} THEN (1500 / (i + 1)) * (1 + i % 10) ELSE (i % 5 = 0)::int * (1 + i % 10) END AS position_sum
  FROM ${q}`;
const itemRows = (dayExpr: string, q: string) => `
  SELECT ${dayExpr} AS day, 'ITEM-' || ((j * 37 + d * 101) % 5000) AS item, 'Item ' || ((j * 37 + d * 101) % 5000) AS title,
    1 + 500 / (j + 1) AS views, (j % 4 = 0)::int * (1 + 50 / (j + 1)) AS exports
  FROM ${q}`;
// SQLite has no ::int; its comparisons are 0 or 1 already.
const sqlite = (sql: string) => sql.replaceAll("::int", "");

function fillSqlite(file: string): void {
  const store = new SqliteSignalStore(file);
  const db = store.db;
  db.pragma("synchronous = OFF");
  const days = `WITH RECURSIVE d(d) AS (SELECT 0 UNION ALL SELECT d + 1 FROM d WHERE d < ${DAYS - 1})`;
  const dayExpr = `date('${TODAY}', '-' || d || ' days')`;
  db.transaction(() => {
    db.exec(`INSERT INTO daily_queries (day, query, searches, zero, clicks, position_sum)
      ${days}, n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${QUERIES - 1})
      ${sqlite(queryRows(dayExpr, "d, n"))}`);
    db.exec(`INSERT INTO daily_items (day, item, title, views, exports)
      ${days}, n(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM n WHERE j < ${ITEMS - 1})
      ${sqlite(itemRows(dayExpr, "d, n"))}`);
    db.exec(`INSERT INTO daily_totals (day, searches, zero, clicks, position_sum, views, exports)
      SELECT day, sum(s), sum(z), sum(c), sum(p), sum(v), sum(e) FROM (
        SELECT day, searches s, zero z, clicks c, position_sum p, 0 v, 0 e FROM daily_queries
        UNION ALL SELECT day, 0, 0, 0, 0, views, exports FROM daily_items) GROUP BY day`);
  })();
  store.checkpoint();
  db.pragma("wal_checkpoint(TRUNCATE)");
  store.close();
}

/** Wraps the store's statements so that each one's time is added up under its first words. */
function timeStatements(db: Database.Database, into: Map<string, number>): void {
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const statement = prepare(sql);
    const name = sql.replace(/\s+/g, " ").trim().slice(0, 70);
    for (const method of ["run", "get", "all"] as const) {
      const original = statement[method].bind(statement) as (...args: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        const t = performance.now();
        try {
          return original(...args);
        } finally {
          into.set(name, (into.get(name) ?? 0) + performance.now() - t);
        }
      };
    }
    return statement;
  }) as typeof db.prepare;
}

const timed = <T>(work: () => T): [T, number] => {
  const t = performance.now();
  const result = work();
  return [result, performance.now() - t];
};
const range = (span: number, to: string) => [addDays(to, 1 - span), to] as const;
const fmt = (msValue: number) => msValue.toFixed(msValue < 10 ? 2 : 0);

// -- 1. SQLite ------------------------------------------------------------------------------------
const template = path.join(OUT, `analytics-${TODAY}-${DAYS}x${QUERIES}.db`);
if (!fs.existsSync(template)) {
  for (const old of fs.readdirSync(OUT).filter((f) => f.startsWith("analytics-") && f.endsWith(".db"))) fs.rmSync(path.join(OUT, old));
  const [, fillMs] = timed(() => fillSqlite(`${template}.tmp`));
  fs.renameSync(`${template}.tmp`, template);
  console.log(`SQLite: daily rows written in ${(fillMs / 1000).toFixed(1)} s`);
}
const file = path.join(OUT, "analytics-run", "signals.db");
fs.rmSync(path.dirname(file), { recursive: true, force: true });
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.copyFileSync(template, file);

let store = new SqliteSignalStore(file);
const rows = store.db.prepare("SELECT (SELECT count(*) FROM daily_queries) q, (SELECT count(*) FROM daily_items) i, (SELECT count(*) FROM daily_totals) t").get() as Record<"q" | "i" | "t", number>;
console.log(`SQLite: ${rows.q + rows.i + rows.t} daily rows (${rows.q} query rows, ${rows.i} item rows, ${rows.t} days), ${(fs.statSync(file).size / 2 ** 20).toFixed(0)} MiB`);

const results: (string | number)[][] = [["SQLite report", "7 days ms", "30 days ms", "90 days ms", "90 ÷ 7"]];
const statements = new Map<string, number>();
const reportAll = (label: string, to: string, repeat = 1) => {
  const times = PERIODS.map((span) => {
    const runs: number[] = [];
    for (let i = 0; i < repeat; i++) runs.push(timed(() => store.report(...range(span, to), LIMIT))[1]);
    return median(runs);
  });
  results.push([label, ...times.map(fmt), (times[2]! / times[0]!).toFixed(2)]);
};
/** The background upkeep moving the periods up to `today`, a day a transaction: steps, total and longest. */
const upkeepRows: (string | number)[][] = [["upkeep (background)", "days moved", "total ms", "longest step ms"]];
const upkeep = async (label: string, today: string, step: (today: string) => boolean | Promise<boolean>) => {
  const steps: number[] = [];
  for (let more = true; more; ) {
    const t = performance.now();
    more = await step(today);
    steps.push(performance.now() - t);
  }
  upkeepRows.push([label, steps.length, fmt(steps.reduce((a, b) => a + b, 0)), fmt(Math.max(...steps))]);
};
timeStatements(store.db, statements);
reportAll("first, no period totals yet (upgrade)", TODAY);
await upkeep("SQLite: after the upgrade", TODAY, (today) => store.rollups.step(today));
reportAll("steady (median of 5)", TODAY, 5);
reportAll("first of a new day, before the upkeep", TOMORROW);
await upkeep("SQLite: the day changes", TOMORROW, (today) => store.rollups.step(today));
reportAll("steady on the new day (median of 5)", TOMORROW, 5);
store.close();
store = new SqliteSignalStore(file);
timeStatements(store.db, statements);
reportAll("first after a restart", TOMORROW);
const [, pruneMs] = timed(() => store.prune(Date.parse(`${addDays(TOMORROW, -89)}T00:00:00Z`), { forwarding: false, seenBefore: 0 }));
reportAll("after pruning a day (median of 5)", TOMORROW, 5);
const check = store.report(...range(90, TOMORROW), LIMIT);
console.log(`\n${table(results)}`);
console.log(`${table(upkeepRows)}\npruning the day that left (90 days' retention): ${fmt(pruneMs)} ms; 90 days: ${check.totals.searches} searches, top query "${check.topQueries[0]?.query}"`);
console.log(`\nSQLite time by statement, all the reports above (ms):`);
console.log(table([["statement", "ms"], ...[...statements].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([sql, t]) => [sql, fmt(t)])]));
console.log("\nQuery plans of the ranked tables:");
for (const sql of [
  `SELECT query FROM period_queries WHERE span = 90 AND searches > 0 AND query != '' ORDER BY searches DESC, query LIMIT 20`,
  `SELECT query FROM period_queries WHERE span = 90 AND zero > 0 AND query != '' ORDER BY zero DESC, query LIMIT 20`,
  `SELECT query, sum(searches) FROM daily_queries WHERE day BETWEEN '${addDays(TODAY, -89)}' AND '${TODAY}' GROUP BY query ORDER BY 2 DESC LIMIT 20`,
]) {
  const plan = (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join("; ");
  console.log(`  ${sql.slice(0, 60)}…: ${plan}`);
}
store.close();

// -- 2. PostgreSQL --------------------------------------------------------------------------------
if (process.env.ANALYTICS_BENCH_PG !== "0") {
  let postgres: Awaited<ReturnType<typeof startPostgres>> | null = null;
  try {
    postgres = await startPostgres();
  } catch (error) {
    console.log(`\nPostgreSQL skipped: ${error instanceof Error ? error.message.split("\n")[0] : error}`);
  }
  if (postgres) {
    const pool = createPool(postgres.url(), { max: 4 });
    // The tables of the earlier version first, filled, then the migrations since (as an upgrade meets them).
    await migrate(pool, SIGNALS_MIGRATIONS.slice(0, 2));
    const dayExpr = `to_char(date '${TODAY}' - d, 'YYYY-MM-DD')`;
    // Filling takes longer than the app's pool lets a statement run: a pool of the bench's own.
    const filler = new pg.Pool({ connectionString: postgres.url(), max: 1 });
    const t = performance.now();
    await filler.query(`INSERT INTO analytics_queries ${queryRows(dayExpr, `generate_series(0, ${DAYS - 1}) d, generate_series(0, ${QUERIES - 1}) i`)}`);
    await filler.query(`INSERT INTO analytics_items ${itemRows(dayExpr, `generate_series(0, ${DAYS - 1}) d, generate_series(0, ${ITEMS - 1}) j`)}`);
    await filler.query(`INSERT INTO analytics_days (day, searches, zero, clicks, position_sum, views, exports)
      SELECT day, sum(s), sum(z), sum(c), sum(p), sum(v), sum(e) FROM (
        SELECT day, searches s, zero z, clicks c, position_sum p, 0 v, 0 e FROM analytics_queries
        UNION ALL SELECT day, 0, 0, 0, 0, views, exports FROM analytics_items) t GROUP BY day`);
    await filler.query("VACUUM ANALYZE");
    await filler.end();
    await migrate(pool, SIGNALS_MIGRATIONS);
    console.log(`\nPostgreSQL: the same daily rows written in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const shared = new PgSignalTables(pool);
    const pgResults: (string | number)[][] = [["PostgreSQL report", "7 days ms", "30 days ms", "90 days ms", "90 ÷ 7"]];
    const pgReport = async (span: number, to: string): Promise<string> => {
      const started = performance.now();
      try {
        await shared.report(...range(span, to), LIMIT);
        return fmt(performance.now() - started);
      } catch (error) {
        return `failed after ${fmt(performance.now() - started)} (${error instanceof Error ? error.message : error})`;
      }
    };
    const pgRow = async (label: string, to: string, repeat: number) => {
      const cells: string[] = [];
      for (const span of PERIODS) {
        const runs: string[] = [];
        for (let i = 0; i < repeat; i++) runs.push(await pgReport(span, to));
        const numbers = runs.map(Number).filter((n) => !Number.isNaN(n));
        cells.push(numbers.length === runs.length ? fmt(median(numbers)) : runs.find((r) => Number.isNaN(Number(r)))!);
      }
      const [a, , c] = cells.map(Number);
      pgResults.push([label, ...cells, a && c ? (c / a).toFixed(2) : "–"]);
    };
    await pgRow("first, no period totals yet (upgrade)", TODAY, 1);
    await upkeep("PostgreSQL: after the upgrade", TODAY, (today) => shared.step(today));
    await pgRow("steady (median of 3)", TODAY, 3);
    await pgRow("first of a new day, before the upkeep", TOMORROW, 1);
    await upkeep("PostgreSQL: the day changes", TOMORROW, (today) => shared.step(today));
    await pgRow("steady on the new day (median of 3)", TOMORROW, 3);
    const prunedAt = performance.now();
    await shared.prune(addDays(TOMORROW, -89), 0);
    const pgPruneMs = performance.now() - prunedAt;
    await pgRow("after pruning a day (median of 3)", TOMORROW, 3);
    console.log(table(pgResults));
    console.log(`${table(upkeepRows.filter((row) => String(row[0]).startsWith("PostgreSQL")))}\npruning the day that left: ${fmt(pgPruneMs)} ms`);
    await pool.end();
    postgres.stop();
  }
}
console.log(`\nload average ${os.loadavg().map((n) => n.toFixed(1)).join(" ")}`);
process.exit(0);
