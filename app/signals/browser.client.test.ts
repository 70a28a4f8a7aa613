import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { eventId, SignalQueue, type QueuedSignal } from "./browser.client";

const signal = (n: number): QueuedSignal => ({ id: `id-${String(n).padStart(6, "0")}`, timestamp: "2026-11-25T10:00:00.000Z", type: "view", data: { docId: `D${n}`, viewDuration: 1000 } });
const ids = (body: string) => (JSON.parse(body) as { signals: QueuedSignal[] }).signals.map((s) => s.id);

function queue(results: boolean[] = [], enabled = true) {
  const sent: string[] = [];
  const beacons: string[] = [];
  const q = new SignalQueue({
    enabled,
    send: async (body) => {
      sent.push(body);
      return results.shift() ?? true;
    },
    beacon: (body) => (beacons.push(body), true),
  });
  return { q, sent, beacons };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("the browser's signal queue", () => {
  it("sends a full batch of 10 at once, with source and version", async () => {
    const { q, sent } = queue();
    for (let i = 0; i < 10; i++) q.push(signal(i));
    await vi.runAllTimersAsync();
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]!)).toMatchObject({ source: "crib-search-web", version: "1" });
    expect(ids(sent[0]!)).toHaveLength(10);
  });

  it("sends a partial batch 5 s after its first signal, not before", async () => {
    const { q, sent } = queue();
    q.push(signal(1));
    await vi.advanceTimersByTimeAsync(3000);
    q.push(signal(2));
    await vi.advanceTimersByTimeAsync(1999);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent.map(ids)).toEqual([["id-000001", "id-000002"]]);
  });

  it("tries a failed batch again up to 3 times, then lets it go", async () => {
    const { q, sent } = queue([false, false, false, false]);
    q.push(signal(1));
    await vi.advanceTimersByTimeAsync(5000);
    for (let i = 0; i < 5; i++) await vi.advanceTimersByTimeAsync(5000);
    expect(sent).toHaveLength(4);
    expect(q.size).toBe(0);
  });

  it("delivers on a retry what failed once", async () => {
    const { q, sent } = queue([false]);
    q.push(signal(1));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent.map(ids)).toEqual([["id-000001"], ["id-000001"]]);
    expect(q.size).toBe(0);
  });

  it("hands everything waiting to the beacon when the page is hidden, in batches of 10", () => {
    const { q, sent, beacons } = queue();
    for (let i = 0; i < 9; i++) q.push(signal(i));
    q.hide();
    expect(sent).toHaveLength(0);
    expect(beacons.map(ids).map((b) => b.length)).toEqual([9]);
    expect(q.size).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(sent).toHaveLength(0);
  });

  it("sends nothing when signals are turned off", async () => {
    const { q, sent, beacons } = queue([], false);
    for (let i = 0; i < 12; i++) q.push(signal(i));
    q.hide();
    await vi.runAllTimersAsync();
    expect([sent, beacons]).toEqual([[], []]);
  });

  it("makes event ids the API accepts", () => {
    expect(eventId()).toMatch(/^[0-9a-f]{32}$/);
    expect(eventId()).not.toBe(eventId());
  });
});
