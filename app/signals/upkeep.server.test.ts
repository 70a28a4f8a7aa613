/**
 * The signals' background work against the SharedSignals port (docs/decisions/046): what it tells
 * the shared store, when, and that signals off leave the shared totals alone.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { RecordingSharedSignals } from "../../tests/support/shared-signals";
import { useTempFiles } from "../../tests/support/temp-files";
import type { Signal } from "./model.server";
import { SqliteSignalStore } from "./store.server";
import { SignalUpkeep } from "./upkeep.server";

const tempFile = useTempFiles("crib-upkeep-", "signals.db");

const DAY = 86_400_000;
const NOW = Date.parse("2026-11-25T10:00:00Z");
const searchAt = (n: number): Signal => ({ id: `s-${n}`, timestamp: new Date(NOW).toISOString(), sessionId: null, userId: null, type: "search", data: { query: `q${n}`, numResults: 1, searchTime: 1, filters: [] } });

function upkeepWith(options: { enabled?: boolean; maxRows?: number } = {}) {
  const shared = new RecordingSharedSignals();
  const store = new SqliteSignalStore(tempFile());
  const upkeep = new SignalUpkeep(store, shared, null, { enabled: options.enabled ?? true, retentionDays: 30, repeatWindowMs: 60_000, maxRows: options.maxRows ?? 1000, now: () => NOW });
  return { shared, store, upkeep };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the signals' upkeep", () => {
  it("folds into this outbox's totals and then the shared ones, telling them what was removed to keep the rows bounded", () => {
    const { shared, store, upkeep } = upkeepWith({ maxRows: 3 });
    store.insert(Array.from({ length: 5 }, (_, i) => searchAt(i)), "server");
    expect(upkeep.fold()).toBe(5);
    expect(store.all()).toHaveLength(3);
    expect(shared.argsOf("evicted")).toEqual([["2026-11-25", 2]]);
    expect(shared.argsOf("fold")).toHaveLength(1);
  });

  it("prunes past the retention and the repeat window, here and in the shared store", () => {
    const { shared, upkeep } = upkeepWith();
    upkeep.prune();
    expect(shared.argsOf("prune")).toEqual([[new Date(NOW - 30 * DAY).toISOString().slice(0, 10), NOW - 60_000]]);
  });

  it("moves the periods up to today, the shared ones after this outbox's, one run at a time", async () => {
    const { shared, upkeep } = upkeepWith();
    const first = upkeep.upkeep();
    expect(upkeep.upkeep()).toBe(first);
    await first;
    expect(shared.argsOf("moveUp")).toEqual([["2026-11-25"]]);
  });

  it("with signals off, folds and moves nothing into the shared totals", async () => {
    const { shared, upkeep } = upkeepWith({ enabled: false });
    upkeep.fold();
    await upkeep.foldShared();
    await upkeep.upkeep();
    await upkeep.drain(100);
    expect(shared.argsOf("fold")).toEqual([]);
    expect(shared.argsOf("moveUp")).toEqual([]);
  });

  it("drains without Fusion by folding what is left, into the shared totals too", async () => {
    const { shared, store, upkeep } = upkeepWith();
    store.insert([searchAt(1)], "server");
    await upkeep.drain(100);
    expect(store.report("2026-11-25", "2026-11-25", 5).totals.searches).toBe(1);
    expect(shared.argsOf("fold").length).toBeGreaterThanOrEqual(1);
  });

  it("starts once: prunes and moves up at once, folds every couple of seconds, and stops", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const { shared, upkeep } = upkeepWith();
    upkeep.start();
    upkeep.start();
    await upkeep.upkeep();
    expect(shared.argsOf("prune")).toHaveLength(1);
    expect(shared.argsOf("moveUp")).toHaveLength(1);
    vi.advanceTimersByTime(2000);
    expect(shared.argsOf("fold")).toHaveLength(1);
    await upkeep.stop();
    vi.advanceTimersByTime(60 * 60_000);
    expect(shared.argsOf("fold")).toHaveLength(1);
    expect(shared.argsOf("prune")).toHaveLength(1);
  });
});
