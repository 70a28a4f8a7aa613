/**
 * signals.db is bounded (issue 28): at most SIGNALS_MAX_ROWS signals, the oldest removed first and
 * counted for /analytics, and every row dated by the server, so that no browser's clock (a signal
 * dated 9999) keeps a row past its retention.
 */
import { describe, expect, it } from "vitest";
import { Signals, type SignalContext } from "./signals.server";
import { useTempFiles } from "../../tests/support/temp-files";

const tempFile = useTempFiles("crib-signals-", "signals.db");

const DAY = 86_400_000;
const browser = (id: string): SignalContext => ({ sessionId: id.padEnd(22, "x"), userId: null, identity: id });
const search = (query: string) => ({ type: "search" as const, data: { query, numResults: 3, searchTime: 5, filters: [] } });
const view = (id: string, timestamp: string) => ({ id, timestamp, type: "view" as const, data: { docId: "ITM-1", viewDuration: 1000 } });
const ALL_DAYS = ["2000-01-01", "2999-12-31"] as const;

describe("the size of signals.db", () => {
  it("keeps at most maxRows signals: the oldest go first, and are counted as removed", () => {
    const signals = new Signals({ enabled: true, file: tempFile(), retentionDays: 90, forwarding: null, perMinute: 100_000, maxRows: 1000 });
    for (let i = 0; i < 1500; i++) signals.record(search(`q${i}`), browser(`s${i % 50}`));
    signals.fold();
    const kept = signals.store.all();
    expect(kept).toHaveLength(1000);
    // The first 500 stored are the ones removed.
    expect(kept[0]!.signal.data).toMatchObject({ query: "q500" });
    const report = signals.store.report(...ALL_DAYS, 10);
    expect(report.totals.evicted).toBe(500);
    // They were counted in the totals before they went: the analytics lose nothing.
    expect(report.totals.searches).toBe(1500);
  });

  it("removes nothing below the cap", () => {
    const signals = new Signals({ enabled: true, file: tempFile(), retentionDays: 90, forwarding: null, maxRows: 1000 });
    for (let i = 0; i < 10; i++) signals.record(search(`q${i}`), browser(`s${i}`));
    signals.fold();
    expect(signals.store.all()).toHaveLength(10);
    expect(signals.store.report(...ALL_DAYS, 10).totals.evicted).toBe(0);
  });

  it("keeps the cap with signals from browsers too, unsent ones included", () => {
    let now = Date.parse("2026-11-25T10:00:00Z");
    const signals = new Signals({ enabled: true, file: tempFile(), retentionDays: 90, forwarding: null, perMinute: 100_000, maxRows: 1000, now: () => now });
    for (let batch = 0; batch < 12; batch++) {
      const sent = Array.from({ length: 100 }, (_, i) => view(`view-${batch}-${i}-xxxxxxxx`, new Date(now).toISOString()));
      expect(signals.acceptFromClient(sent, browser(`b${batch}`))).toBe(100);
      now += 1000;
      signals.fold();
    }
    expect(signals.store.all()).toHaveLength(1000);
    expect(signals.store.report(...ALL_DAYS, 10).totals.evicted).toBe(200);
  });
});

describe("the time of a browser's signal", () => {
  const now = Date.parse("2026-11-25T10:00:00Z");
  const signals = () => new Signals({ enabled: true, file: tempFile(), retentionDays: 90, forwarding: null, now: () => now });

  it.each([
    ["the year 9999", "9999-12-31T23:59:59Z", now + DAY],
    ["the year 1970", "1970-01-01T00:00:00Z", now - DAY],
    ["an hour ago", "2026-11-25T09:00:00Z", now - 3_600_000],
  ])("dated %s is stored at the server's time, the browser's kept as data within a day of it", (_what, timestamp, clamped) => {
    const store = signals();
    store.acceptFromClient([view("view-of-browser-clock", timestamp)], browser("a"));
    const [row] = store.store.all();
    expect(row!.signal.timestamp).toBe(new Date(now).toISOString());
    expect(row!.signal.clientTimestamp).toBe(new Date(clamped).toISOString());
  });

  it("a signal dated 9999 by its browser goes with its retention like any other", () => {
    let at = now;
    const store = new Signals({ enabled: true, file: tempFile(), retentionDays: 90, forwarding: null, now: () => at });
    store.acceptFromClient([view("view-dated-9999-xxxx", "9999-12-31T23:59:59Z")], browser("a"));
    at += 91 * DAY;
    expect(store.prune()).toBe(1);
    expect(store.store.all()).toHaveLength(0);
  });
});
