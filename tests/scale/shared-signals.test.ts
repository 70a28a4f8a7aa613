/**
 * The signals' shared totals on a PostgreSQL of their own: what the per-minute cap drops is
 * counted there, once, and written with the fold rather than once per refusal.
 */
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createPool, migrate } from "~/lib/postgres.server";
import { PgSharedSignals, SIGNALS_MIGRATIONS } from "~/signals/shared-pg.server";
import { Signals, type SignalContext } from "~/signals/signals.server";
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
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await signals.foldShared();
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
    expect((await signals.report(day, day, 10)).totals.dropped).toBe(before + 4);
  });
});
