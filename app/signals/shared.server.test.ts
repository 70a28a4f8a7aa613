/**
 * The SharedSignals port's two implementations (docs/decisions/046): nothing shared on one machine,
 * and PostgreSQL's (its tables stood in for here; tests/scale/shared-signals.test.ts runs them on a
 * real PostgreSQL): nothing shared is touched before `prepare`, a failing store leaves the replica
 * alone, dropped signals wait for a fold.
 */
import type pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { capturedLog } from "~/lib/log.server";
import { useTempFiles } from "../../tests/support/temp-files";
import { PgSharedSignals } from "./shared-pg.server";
import { PgSignalTables } from "./shared-pg-tables.server";
import { NoSharedSignals } from "./shared.server";
import { SqliteSignalStore } from "./store.server";

const tempFile = useTempFiles("crib-shared-", "signals.db");

/** A pool that must not be reached: every statement of these tests goes to a stand-in of the tables. */
const unreachable = { query: () => Promise.reject(new Error("no database in a unit test")) } as unknown as pg.Pool;
const DAY = "2026-11-25";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("nothing shared (one machine)", () => {
  it("gives the outbox's own keys and totals, checks no repeat and keeps nothing", async () => {
    const outbox = new SqliteSignalStore(tempFile());
    const none = new NoSharedSignals();
    await none.prepare();
    expect(none.secret("session-cookie", outbox)).toBe(outbox.secret("session-cookie"));
    expect(await none.repeats()).toBeUndefined();
    expect(await none.report("2026-11-01", DAY, 5, outbox)).toEqual(outbox.report("2026-11-01", DAY, 5));
  });
});

describe("shared through PostgreSQL", () => {
  it("touches nothing shared before it is prepared, and gives no key of its own", async () => {
    const outbox = new SqliteSignalStore(tempFile());
    const shared = new PgSharedSignals(unreachable);
    const fold = vi.spyOn(PgSignalTables.prototype, "fold");
    expect(await shared.repeats([{ identity: "a", key: "view:A" }], 60_000, 0)).toBeUndefined();
    await shared.fold(outbox);
    await shared.moveUp(() => DAY);
    await shared.prune(DAY, 0);
    expect(fold).not.toHaveBeenCalled();
    expect(() => shared.secret("session-cookie")).toThrow(/was not loaded/);
  });

  it("loads the keys it is asked for once, at prepare", async () => {
    vi.spyOn(PgSignalTables.prototype, "secret").mockResolvedValue("the-shared-key");
    const shared = new PgSharedSignals(unreachable);
    await shared.prepare(["session-cookie"]);
    expect(shared.secret("session-cookie")).toBe("the-shared-key");
    expect(() => shared.secret("other")).toThrow(/was not loaded/);
  });

  it("answers undefined while its repeat check fails, so the replica checks alone", async () => {
    vi.spyOn(PgSignalTables.prototype, "repeats").mockRejectedValue(new Error("the database is restarting"));
    const shared = new PgSharedSignals(unreachable);
    await shared.prepare([]);
    const { result, entries } = await capturedLog(() => shared.repeats([{ identity: "a", key: "view:A" }], 60_000, 0));
    expect(result).toBeUndefined();
    expect(entries).toContainEqual(expect.objectContaining({ level: "error", msg: "store failing", store: "postgres", use: "signals" }));
  });

  it("writes dropped signals with the fold, one statement a day, and keeps what could not be written for the next", async () => {
    const outbox = new SqliteSignalStore(tempFile());
    const fold = vi.spyOn(PgSignalTables.prototype, "fold").mockResolvedValue(0);
    const written = vi.spyOn(PgSignalTables.prototype, "countDropped").mockRejectedValueOnce(new Error("the database is restarting")).mockResolvedValue();
    const shared = new PgSharedSignals(unreachable);
    await shared.prepare([]);
    for (let i = 0; i < 4; i++) shared.dropped(DAY, 1);
    shared.dropped("2026-11-26", 2);
    expect(written).not.toHaveBeenCalled();
    await capturedLog(() => shared.fold(outbox));
    expect(fold).not.toHaveBeenCalled();
    await shared.fold(outbox);
    expect(written.mock.calls).toEqual([
      [DAY, 4],
      [DAY, 4],
      ["2026-11-26", 2],
    ]);
    expect(fold).toHaveBeenCalledTimes(1);
    expect(fold.mock.calls[0]![0]).toBe(outbox.secret("outbox-id"));
  });

  it("folds once at a time: a fold asked for while one runs is that one", async () => {
    const outbox = new SqliteSignalStore(tempFile());
    let finish = (_n: number) => {};
    const fold = vi.spyOn(PgSignalTables.prototype, "fold").mockImplementation(() => new Promise((resolve) => (finish = resolve)));
    const shared = new PgSharedSignals(unreachable);
    await shared.prepare([]);
    const first = shared.fold(outbox);
    expect(shared.fold(outbox)).toBe(first);
    await vi.waitFor(() => expect(fold).toHaveBeenCalledTimes(1));
    finish(0);
    await first;
    expect(fold).toHaveBeenCalledTimes(1);
  });
});
