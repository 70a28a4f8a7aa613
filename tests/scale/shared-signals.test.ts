/**
 * The signals' shared totals on a PostgreSQL of their own: what the per-minute cap drops is
 * counted there, once, and written with the fold rather than once per refusal.
 */
import type pg from "pg";
import { capturedLog } from "~/lib/log.server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createPool, migrate } from "~/lib/postgres.server";
import { PgSharedSignals } from "~/signals/shared-pg.server";
import { SIGNALS_MIGRATIONS } from "~/signals/shared-pg-tables.server";
import { Signals, type Signal, type SignalContext } from "~/signals/signals.server";
import { useTempFiles } from "../support/temp-files";
import { startPostgres, type Postgres } from "./rig";

let postgres: Postgres;
let pool: pg.Pool;
const tempFile = useTempFiles("crib-shared-signals-", "signals.db");

const visitor = (id: string): SignalContext => ({ sessionId: id.padEnd(22, "x"), userId: null, identity: id });
const search = (query: string) => ({ type: "search" as const, data: { query, numResults: 3, searchTime: 5, filters: [] } });

beforeAll(async () => {
  postgres = await startPostgres();
  pool = createPool(postgres.url(), { max: 2 });
  await migrate(pool, SIGNALS_MIGRATIONS);
}, 120_000);

afterAll(async () => {
  await pool?.end();
  postgres?.stop();
});

describe("signals dropped by the per-minute cap, with a shared store", () => {
  it("are counted in the shared totals once, in one statement a fold", async () => {
    const shared = new PgSharedSignals(pool);
    const signals = new Signals({ enabled: true, file: tempFile(), retentionDays: 90, forwarding: null, perMinute: 3, shared, keySecret: "test-secret" });
    await signals.prepare();
    const counts = vi.spyOn(shared, "countDropped");
    const outcomes = Array.from({ length: 40 }, (_, i) => signals.record(search(`q${i}`), visitor("flood")));
    expect(outcomes.filter((o) => o === "dropped")).toHaveLength(37);
    expect(counts).not.toHaveBeenCalled();

    signals.fold();
    const day = new Date().toISOString().slice(0, 10);
    const report = await signals.report(day, day, 10);
    expect(report.totals).toMatchObject({ searches: 3, dropped: 37 });
    expect(counts).toHaveBeenCalledTimes(1);
    // Folding again counts nothing twice.
    signals.fold();
    expect((await signals.report(day, day, 10)).totals).toMatchObject({ searches: 3, dropped: 37 });
  });

  it("wait for the next fold when the store refuses them, and are not lost", async () => {
    const shared = new PgSharedSignals(pool);
    const signals = new Signals({ enabled: true, file: tempFile(), retentionDays: 90, forwarding: null, perMinute: 1, shared, keySecret: "test-secret" });
    await signals.prepare();
    const day = new Date().toISOString().slice(0, 10);
    const before = (await signals.report(day, day, 10)).totals.dropped;
    for (let i = 0; i < 5; i++) signals.record(search(`r${i}`), visitor("second"));
    vi.spyOn(shared, "countDropped").mockRejectedValueOnce(new Error("the database is restarting"));
    const { entries } = await capturedLog(() => signals.foldShared());
    expect(entries).toContainEqual(expect.objectContaining({ level: "error", msg: "store failing", store: "postgres", use: "analytics" }));
    expect((await signals.report(day, day, 10)).totals.dropped).toBe(before + 4);
  });
});

describe("the shared periods (decision 040)", () => {
  /** Period rows that differ from the daily totals summed over their days (the invariant): none when they are exact. */
  const mismatches = async (db: pg.Pool) => {
    const summed = `SELECT s.span, query, sum(searches) searches, sum(zero) zero, sum(clicks) clicks, sum(position_sum) position_sum
      FROM (VALUES (7), (30), (90)) s(span), analytics_period_end e, analytics_queries q
      WHERE q.day BETWEEN to_char(e.day::date - s.span + 1, 'YYYY-MM-DD') AND e.day GROUP BY s.span, query
      HAVING sum(searches) > 0 OR sum(zero) > 0 OR sum(clicks) > 0`;
    const kept = "SELECT span, query, searches, zero, clicks, position_sum FROM analytics_period_queries";
    const { rows } = await db.query(`SELECT count(*)::int n FROM ((${summed} EXCEPT ${kept}) UNION ALL (${kept} EXCEPT ${summed})) d`);
    return (rows[0] as { n: number }).n;
  };

  it("are kept exact as signals are folded, moved a day by the upkeep and not by a report, and pruned", async () => {
    const admin = createPool(postgres.url(), { max: 1 });
    await admin.query("CREATE DATABASE periods");
    await admin.end();
    const db = createPool(postgres.url("periods"), { max: 2 });
    await migrate(db, SIGNALS_MIGRATIONS);
    const shared = new PgSharedSignals(db);
    let now = Date.now();
    const today = new Date(now).toISOString().slice(0, 10);
    const signals = new Signals({ enabled: true, file: tempFile(), retentionDays: 90, forwarding: null, shared, keySecret: "test-secret", now: () => now });
    await signals.prepare();
    const dayBefore = (n: number) => new Date(Date.parse(`${today}T12:00:00Z`) - n * 86_400_000).toISOString();
    // Searches of the last 40 days: "pump" every day, "valve" on the even days, one of them tomorrow (a skewed clock).
    let id = 0;
    const searchOn = (timestamp: string, query: string): Signal => ({
      id: `p-${++id}`,
      timestamp,
      sessionId: null,
      userId: null,
      type: "search",
      data: { query, numResults: query === "valve" ? 0 : 4, searchTime: 1, filters: [] },
    });
    for (let n = -1; n < 40; n++) signals.store.insert([searchOn(dayBefore(n), "pump"), ...(n % 2 === 0 ? [searchOn(dayBefore(n), "valve")] : [])], "server");
    signals.fold();
    await signals.foldShared();
    await signals.upkeep();
    expect(await mismatches(db)).toBe(0);
    const top = async (span: number, to: string) => {
      const from = new Date(Date.parse(to) - (span - 1) * 86_400_000).toISOString().slice(0, 10);
      const report = await signals.report(from, to, 5);
      return { from: report.from, to: report.to, searches: report.totals.searches, top: report.topQueries.map((q) => [q.query, q.searches, q.zeroResults]) };
    };
    expect(await top(7, today)).toMatchObject({ to: today, searches: 11, top: [["pump", 7, 0], ["valve", 4, 4]] });
    expect(await top(30, today)).toMatchObject({ searches: 45, top: [["pump", 30, 0], ["valve", 15, 15]] });

    // Past midnight: a report before the upkeep is of the days the periods cover, and moves nothing.
    now += 86_400_000;
    const tomorrow = new Date(now).toISOString().slice(0, 10);
    expect(await top(7, tomorrow)).toMatchObject({ to: today, searches: 11 });
    expect((await db.query("SELECT day FROM analytics_period_end")).rows[0]).toEqual({ day: today });
    await signals.upkeep();
    // Tomorrow's signal comes in, the 7th day back (an even one: pump and valve) leaves.
    expect(await top(7, tomorrow)).toMatchObject({ to: tomorrow, searches: 10, top: [["pump", 7, 0], ["valve", 3, 3]] });
    expect(await mismatches(db)).toBe(0);

    // Pruning takes what it deletes off the periods (here a retention shorter than the periods).
    await shared.prune(new Date(now - 20 * 86_400_000).toISOString().slice(0, 10), 0);
    expect(await mismatches(db)).toBe(0);
    expect(await top(30, tomorrow)).toMatchObject({ searches: 21 + 10 });
    signals.store.close();
    await db.end();
  });
});
