/**
 * The recorder against the SharedSignals port (docs/decisions/046): which signals the shared repeat
 * check is asked about and how its answer counts, the replica's own check while it does not
 * answer, and what the per-minute cap drops, told to the shared totals.
 */
import { describe, expect, it } from "vitest";
import { RecordingSharedSignals } from "../../tests/support/shared-signals";
import { useTempFiles } from "../../tests/support/temp-files";
import { repeatKey, SignalRecorder, type SignalContext } from "./recorder.server";
import { SqliteSignalStore } from "./store.server";

const tempFile = useTempFiles("crib-recorder-", "signals.db");

const NOW = Date.parse("2026-11-25T10:00:00Z");
const browser = (id: string): SignalContext => ({ sessionId: id.padEnd(22, "x"), userId: null, identity: id });
const search = (query: string) => ({ type: "search" as const, data: { query, numResults: 3, searchTime: 5, filters: [] } });
const view = (docId: string) => ({ type: "view" as const, data: { docId } });
const click = (docId: string) => ({ type: "click" as const, data: { docId, position: 1 } });

function recorderWith(shared: RecordingSharedSignals, options: { enabled?: boolean; perMinute?: number } = {}) {
  const store = new SqliteSignalStore(tempFile());
  const recorder = new SignalRecorder(store, shared, null, { enabled: options.enabled ?? true, perMinute: options.perMinute ?? 100, repeatWindowMs: 60_000, now: () => NOW });
  return { store, recorder };
}

describe("the recorder's repeat check", () => {
  it("asks the shared check once a turn, about the signals that have a repeat key only, and counts its repeats", async () => {
    const shared = new RecordingSharedSignals((checks) => checks.map(() => true));
    const { store, recorder } = recorderWith(shared);
    const outcomes = await Promise.all([recorder.recordSoon(view("A"), browser("a")), recorder.recordSoon(search("pump"), browser("a")), recorder.recordSoon(click("B"), browser("b"))]);
    expect(outcomes).toEqual(["repeat", "recorded", "repeat"]);
    expect(shared.argsOf("repeats")).toEqual([
      [
        [
          { identity: "a", key: repeatKey(view("A")) },
          { identity: "b", key: repeatKey(click("B")) },
        ],
        60_000,
        NOW,
      ],
    ]);
    expect(store.all()).toHaveLength(1);
  });

  it("does not ask the shared check about a turn of searches", async () => {
    const shared = new RecordingSharedSignals();
    const { recorder } = recorderWith(shared);
    expect(await recorder.recordSoon(search("pump"), browser("a"))).toBe("recorded");
    expect(shared.argsOf("repeats")).toEqual([]);
  });

  it("records what the shared check says is new, even where this replica saw it", async () => {
    const shared = new RecordingSharedSignals((checks) => checks.map(() => false));
    const { recorder } = recorderWith(shared);
    expect(recorder.record(view("A"), browser("a"))).toBe("recorded");
    expect(await recorder.recordSoon(view("A"), browser("a"))).toBe("recorded");
  });

  it("checks alone while the shared check does not answer", async () => {
    const shared = new RecordingSharedSignals(() => undefined);
    const { recorder } = recorderWith(shared);
    expect(await recorder.recordSoon(view("A"), browser("a"))).toBe("recorded");
    expect(await recorder.recordSoon(view("A"), browser("a"))).toBe("repeat");
    expect(await recorder.recordSoon(view("A"), browser("b"))).toBe("recorded");
  });
});

describe("the recorder's per-minute cap", () => {
  it("drops what is over the cap, counted in this outbox and told to the shared totals, from pages and browsers alike", () => {
    const shared = new RecordingSharedSignals();
    const { store, recorder } = recorderWith(shared, { perMinute: 3 });
    const outcomes = Array.from({ length: 5 }, (_, i) => recorder.record(search(`q${i}`), browser("a")));
    expect(outcomes).toEqual(["recorded", "recorded", "recorded", "dropped", "dropped"]);
    const sent = [{ id: "view-over-the-cap-xxxx", timestamp: new Date(NOW).toISOString(), type: "view" as const, data: { docId: "A", viewDuration: 1000 } }];
    expect(recorder.acceptFromClient(sent, browser("a"))).toBeNull();
    expect(shared.argsOf("dropped")).toEqual([
      ["2026-11-25", 1],
      ["2026-11-25", 1],
      ["2026-11-25", 1],
    ]);
    expect(store.all()).toHaveLength(3);
  });

  it("records nothing and asks nothing with signals off", async () => {
    const shared = new RecordingSharedSignals();
    const { store, recorder } = recorderWith(shared, { enabled: false });
    expect(recorder.record(search("pump"), browser("a"))).toBe("off");
    expect(await recorder.recordSoon(view("A"), browser("a"))).toBe("off");
    expect(shared.calls).toEqual([]);
    expect(store.all()).toHaveLength(0);
  });
});

describe("the recorder's work under way", () => {
  it("is settled once every tracked recording has landed, failed ones included", async () => {
    const { recorder } = recorderWith(new RecordingSharedSignals());
    let land = () => {};
    recorder.track(new Promise<void>((resolve) => (land = resolve)));
    recorder.track(Promise.reject(new Error("no session")));
    let settled = false;
    const waiting = recorder.settled().then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    land();
    await waiting;
    expect(settled).toBe(true);
  });
});
