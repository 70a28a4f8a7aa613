import { describe, expect, it, vi } from "vitest";
import type { Signal } from "./model.server";
import { addDays, type AnalyticsReport } from "./rollup.server";
import { Signals } from "./signals.server";
import { SqliteSignalStore } from "./store.server";
import { useTempFiles } from "../../tests/support/temp-files";

const tempFile = useTempFiles("crib-rollup-", "signals.db");

/** A small deterministic random source, so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

let ids = 0;
/** A signal of `day` (some of them a browser's view, which analytics does not count as a view). */
function signalOn(day: string, r: () => number): { signal: Signal; source: "server" | "client" } {
  const base = { id: `sig-${String(++ids).padStart(8, "0")}`, timestamp: `${day}T${String(Math.floor(r() * 24)).padStart(2, "0")}:30:00.000Z`, sessionId: null, userId: null };
  const query = `Query ${Math.floor(r() * r() * 12)}`;
  const item = `ITEM-${Math.floor(r() * r() * 9)}`;
  const kind = r();
  if (kind < 0.5) return { signal: { ...base, type: "search", data: { query, numResults: r() < 0.2 ? 0 : 5, searchTime: 3, filters: [] } }, source: "server" };
  if (kind < 0.7) return { signal: { ...base, type: "click", data: { docId: item, position: Math.floor(r() * 10), query, action: "result" } }, source: "server" };
  if (kind < 0.85) return { signal: { ...base, type: "view", data: { docId: item, itemNumber: item, title: `Title ${item}` } }, source: r() < 0.8 ? "server" : "client" };
  return { signal: { ...base, type: "click", data: { docId: item, itemNumber: item, title: `Title ${item}`, action: "pdp_export" } }, source: "server" };
}

/** What the report of `from`..`to` must say, counted straight from the signals. */
function expected(signals: { signal: Signal; source: string }[], from: string, to: string, limit: number) {
  const queries = new Map<string, { searches: number; zero: number; clicks: number; positions: number }>();
  const items = new Map<string, { views: number; exports: number }>();
  for (const { signal, source } of signals) {
    const day = signal.timestamp.slice(0, 10);
    if (day < from || day > to) continue;
    if (signal.type === "search" || (signal.type === "click" && signal.data.action === "result")) {
      const key = (signal.data.query ?? "").toLowerCase();
      const q = queries.get(key) ?? { searches: 0, zero: 0, clicks: 0, positions: 0 };
      if (signal.type === "search") {
        q.searches++;
        if (signal.data.numResults === 0) q.zero++;
      } else {
        q.clicks++;
        q.positions += signal.data.position! + 1;
      }
      queries.set(key, q);
    } else if ((signal.type === "view" && source === "server") || (signal.type === "click" && signal.data.action === "pdp_export")) {
      const key = signal.data.docId;
      const i = items.get(key) ?? { views: 0, exports: 0 };
      if (signal.type === "view") i.views++;
      else i.exports++;
      items.set(key, i);
    }
  }
  const ranked = <T,>(map: Map<string, T>, count: (v: T) => number) =>
    [...map].filter(([, v]) => count(v) > 0).sort(([a, x], [b, y]) => count(y) - count(x) || (a < b ? -1 : 1)).slice(0, limit);
  const queryRow = ([query, q]: [string, { searches: number; zero: number; clicks: number; positions: number }]) => ({
    query,
    searches: q.searches,
    zeroResults: q.zero,
    clicks: q.clicks,
    meanPosition: q.clicks ? q.positions / q.clicks : null,
  });
  const all = [...queries.values()];
  const totalClicks = all.reduce((n, q) => n + q.clicks, 0);
  return {
    totals: {
      searches: all.reduce((n, q) => n + q.searches, 0),
      zeroResults: all.reduce((n, q) => n + q.zero, 0),
      clicks: totalClicks,
      meanPosition: totalClicks ? all.reduce((n, q) => n + q.positions, 0) / totalClicks : null,
      views: [...items.values()].reduce((n, i) => n + i.views, 0),
      exports: [...items.values()].reduce((n, i) => n + i.exports, 0),
    },
    topQueries: ranked(queries, (q) => q.searches).map(queryRow),
    zeroResultQueries: ranked(queries, (q) => q.zero).map(queryRow),
    mostViewed: ranked(items, (i) => i.views).map(([item, i]) => ({ item, title: `Title ${item}`, count: i.views })),
    mostExported: ranked(items, (i) => i.exports).map(([item, i]) => ({ item, title: `Title ${item}`, count: i.exports })),
  };
}

/** The period tables as the store keeps them, every row, in order. */
function periodsAsKept(store: SqliteSignalStore) {
  return {
    queries: store.db.prepare("SELECT span, query, searches, zero, clicks, position_sum FROM period_queries ORDER BY span, query").all(),
    items: store.db.prepare("SELECT span, item, title, views, exports FROM period_items ORDER BY span, item").all(),
  };
}

/** The period tables as the daily totals over each period's days sum to (the invariant of Rollups), empty rows left out. */
function periodsAsSummed(store: SqliteSignalStore) {
  const end = store.rollups.periodsEnd!;
  const spans = [7, 30, 90].map((span) => `SELECT ${span} AS span, '${addDays(end, 1 - span)}' AS first`).join(" UNION ALL ");
  return {
    queries: store.db
      .prepare(
        `SELECT span, query, sum(searches) searches, sum(zero) zero, sum(clicks) clicks, sum(position_sum) position_sum
         FROM (${spans}) JOIN daily_queries ON day BETWEEN first AND ? GROUP BY span, query
         HAVING sum(searches) > 0 OR sum(zero) > 0 OR sum(clicks) > 0 ORDER BY span, query`,
      )
      .all(end),
    items: store.db
      .prepare(
        `SELECT span, item, max(title) title, sum(views) views, sum(exports) exports
         FROM (${spans}) JOIN daily_items ON day BETWEEN first AND ? GROUP BY span, item
         HAVING sum(views) > 0 OR sum(exports) > 0 ORDER BY span, item`,
      )
      .all(end),
  };
}

/** A report's counts, without its range, chart and dropped or removed signals (which the signals alone do not say). */
const counted = ({ totals: { dropped: _dropped, evicted: _evicted, ...totals }, topQueries, zeroResultQueries, mostViewed, mostExported }: AnalyticsReport) => ({
  totals,
  topQueries,
  zeroResultQueries,
  mostViewed,
  mostExported,
});

describe("the analytics totals", () => {
  it("say for each period what the signals say, day after day, across restarts and pruning, late and early signals included", () => {
    const r = random(7);
    const file = tempFile();
    let store = new SqliteSignalStore(file);
    let stored: { signal: Signal; source: "server" | "client" }[] = [];
    const start = "2026-06-01";
    for (let d = 0; d < 120; d++) {
      const today = addDays(start, d);
      const batch = Array.from({ length: 12 }, () => signalOn(today, r));
      // Signals that arrive late (a browser's, days old) and one dated tomorrow (a skewed clock).
      batch.push(signalOn(addDays(today, -Math.floor(r() * 40)), r), signalOn(addDays(today, 1), r));
      for (const { signal, source } of batch) store.insert([signal], source);
      stored.push(...batch);
      if (d % 17 === 16) {
        // A restart with signals not folded yet: the next process folds them, once.
        store.close();
        store = new SqliteSignalStore(file);
      }
      if (d % 29 === 28) {
        // Retention of 20 days: what is pruned leaves every period it was in.
        const cutoff = Date.parse(`${addDays(today, -20)}T00:00:00Z`);
        store.prune(cutoff, { forwarding: false, seenBefore: cutoff });
        stored = stored.filter(({ signal }) => signal.timestamp.slice(0, 10) >= addDays(today, -20));
      }
      if (d % 4 === 0 || d > 115) {
        // The server's upkeep moves the periods; a report never does.
        store.fold();
        while (store.rollups.step(today));
        expect(periodsAsSummed(store)).toEqual(periodsAsKept(store));
        for (const span of [7, 30, 90]) {
          const from = addDays(today, 1 - span);
          const report = store.report(from, today, 5);
          expect(counted(report), `${span} days to ${today}`).toEqual(expected(stored, from, today, 5));
        }
      }
    }
    // The last 90 days were read from the period totals, not by grouping the daily ones.
    expect(store.rollups.periodsEnd).toBe(addDays(start, 119));
    store.close();
  });

  it("move no period on a report: the first report of a day is of the days the periods cover, and says so", () => {
    const store = new SqliteSignalStore(tempFile());
    const r = random(11);
    const stored = Array.from({ length: 200 }, (_, i) => signalOn(addDays("2026-06-01", i % 20), r));
    for (const { signal, source } of stored) store.insert([signal], source);
    store.fold();
    while (store.rollups.step("2026-06-19"));
    const shifts = ["shiftQueries", "shiftItems"].map((name) => vi.spyOn((store.rollups as unknown as { s: Record<string, { run: () => unknown }> }).s[name]!, "run"));

    // Midnight has passed (the 20th has signals), the upkeep has not run yet.
    const report = store.report("2026-06-14", "2026-06-20", 5);
    expect(shifts.map((shift) => shift.mock.calls.length)).toEqual([0, 0]);
    expect(store.rollups.periodsEnd).toBe("2026-06-19");
    expect([report.from, report.to]).toEqual(["2026-06-13", "2026-06-19"]);
    expect(counted(report)).toEqual(expected(stored, "2026-06-13", "2026-06-19", 5));

    // One step of the upkeep, and the same request is of the days asked for.
    expect(store.rollups.step("2026-06-20")).toBe(false);
    const next = store.report("2026-06-14", "2026-06-20", 5);
    expect([next.from, next.to]).toEqual(["2026-06-14", "2026-06-20"]);
    expect(counted(next)).toEqual(expected(stored, "2026-06-14", "2026-06-20", 5));
    store.close();
  });

  it("start the periods of a database that has none before its first day, and catch up a day a step", () => {
    const store = new SqliteSignalStore(tempFile());
    const r = random(13);
    const stored = Array.from({ length: 300 }, (_, i) => signalOn(addDays("2026-03-01", i % 40), r));
    for (const { signal, source } of stored) store.insert([signal], source);
    store.fold();
    expect(store.rollups.periodsEnd).toBeNull();
    let steps = 1;
    while (store.rollups.step("2026-04-09")) steps++;
    // From the day before the first (Feb 28) to April 9: 40 days, one each.
    expect(steps).toBe(40);
    expect(store.rollups.periodsEnd).toBe("2026-04-09");
    expect(periodsAsSummed(store)).toEqual(periodsAsKept(store));
    for (const span of [7, 30, 90]) {
      const from = addDays("2026-04-09", 1 - span);
      expect(counted(store.report(from, "2026-04-09", 5)), `${span} days`).toEqual(expected(stored, from, "2026-04-09", 5));
    }
    // Pruning takes what it deletes off the periods and leaves no empty rows behind.
    store.prune(Date.parse("2026-03-25T00:00:00Z"), { forwarding: false, seenBefore: 0 });
    expect(periodsAsSummed(store)).toEqual(periodsAsKept(store));
    const left = stored.filter(({ signal }) => signal.timestamp.slice(0, 10) >= "2026-03-25");
    expect(counted(store.report("2026-03-11", "2026-04-09", 5))).toEqual(expected(left, "2026-03-11", "2026-04-09", 5));

    // An earlier version's database (daily totals, no periods): opening it starts them before its first day.
    store.db.exec("DELETE FROM period_queries; DELETE FROM period_items; DELETE FROM meta WHERE key = 'periods_end'");
    const file = store.file;
    store.close();
    const reopened = new SqliteSignalStore(file);
    expect(reopened.rollups.periodsEnd).toBe("2026-03-24");
    expect(reopened.report("2026-04-03", "2026-04-09", 5).totals.searches).toBe(0);
    while (reopened.rollups.step("2026-04-09"));
    expect(periodsAsSummed(reopened)).toEqual(periodsAsKept(reopened));
    reopened.close();
  });

  it("count a signal once however many processes fold, and a fold cut short goes on where it stopped", () => {
    const file = tempFile();
    const one = new SqliteSignalStore(file);
    const two = new SqliteSignalStore(file);
    const r = random(3);
    const signals = Array.from({ length: 50 }, () => signalOn("2026-11-20", r));
    for (const { signal, source } of signals) one.insert([signal], source);
    expect(one.rollups.fold(7) + two.rollups.fold(7) + one.fold() + two.fold()).toBe(50);
    one.insert([signals[0]!.signal], signals[0]!.source); // a replay stores and counts nothing
    expect(two.fold()).toBe(0);
    const report = one.report("2026-11-14", "2026-11-20", 5);
    expect(counted(report)).toEqual(expected(signals, "2026-11-14", "2026-11-20", 5));
    expect(two.report("2026-11-14", "2026-11-20", 5)).toEqual(report);
    one.close();
    two.close();
  });

  it("count signals stored after pruning emptied the outbox (SQLite then gives their rows numbers again)", () => {
    const store = new SqliteSignalStore(tempFile());
    const r = random(5);
    const old = Array.from({ length: 5 }, () => signalOn("2026-01-10", r));
    for (const { signal, source } of old) store.insert([signal], source);
    store.prune(Date.parse("2026-06-01T00:00:00Z"), { forwarding: false, seenBefore: 0 });
    expect(store.all()).toEqual([]);
    const fresh = Array.from({ length: 5 }, () => signalOn("2026-06-05", r));
    for (const { signal, source } of fresh) store.insert([signal], source);
    expect(counted(store.report("2026-05-30", "2026-06-05", 5))).toEqual(expected(fresh, "2026-05-30", "2026-06-05", 5));
    store.close();
  });

  it("takes an earlier version's database as counted: its signals were added to the totals as they were stored", () => {
    const file = tempFile();
    const store = new SqliteSignalStore(file);
    store.insert([signalOn("2026-11-20", random(1)).signal], "server");
    // What an earlier version left: the signal's row and its daily total, no mark of the fold.
    store.db.exec("INSERT INTO daily_totals (day, searches) VALUES ('2026-11-20', 1); DELETE FROM meta WHERE key = 'folded_through'");
    store.close();
    const reopened = new SqliteSignalStore(file);
    expect(reopened.fold()).toBe(0);
    reopened.close();
  });
});

describe("the per-minute cap", () => {
  it("holds across the processes that share the signals database", () => {
    const file = tempFile();
    let now = Date.parse("2026-11-25T10:00:05Z");
    const worker = () => new Signals({ enabled: true, file, retentionDays: 90, forwarding: null, perMinute: 5, now: () => now });
    const [a, b] = [worker(), worker()];
    const search = (q: string) => ({ type: "search" as const, data: { query: q, numResults: 1, searchTime: 1, filters: [] } });
    const context = { sessionId: null, userId: null, identity: "one-session" };
    const outcomes = Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).record(search(`q${i}`), context));
    expect(outcomes.filter((o) => o === "recorded")).toHaveLength(5);
    expect(b.record(search("other"), { ...context, identity: "another-session" })).toBe("recorded");
    // A browser's batch counts against the same cap, whichever worker takes it.
    const view = { id: "client-view-1", timestamp: new Date(now).toISOString(), type: "view" as const, data: { docId: "D1", viewDuration: 900 } };
    expect(a.acceptFromClient([view], context)).toBeNull();
    now += 60_000;
    expect(b.acceptFromClient([view], context)).toBe(1);
    expect(a.store.report("2026-11-25", "2026-11-25", 5).totals).toMatchObject({ searches: 6, dropped: 4 });
    a.store.close();
    b.store.close();
  });
});
