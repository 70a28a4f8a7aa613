import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SignalForwarder } from "./forwarder.server";
import type { FusionSignal } from "./model.server";
import { Signals, type SignalContext } from "./signals.server";
import { SqliteSignalStore } from "./store.server";
import { expectConsoleError } from "../../tests/support/console-guard";
import { useTempFiles } from "../../tests/support/temp-files";

const tempFile = useTempFiles("crib-signals-", "signals.db");

const browser = (id: string): SignalContext => ({ sessionId: id.padEnd(22, "x"), userId: null, identity: id });
const search = (query: string, numResults = 3) => ({ type: "search" as const, data: { query, numResults, searchTime: 5, filters: [] } });

/** A Fusion that answers `statuses` in turn (then 200) and keeps what it accepted. */
function fakeFusion(statuses: number[] = []) {
  const accepted: FusionSignal[] = [];
  const calls: { url: string; size: number; apiKey: string | null }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    const batch = JSON.parse(String(init.body)) as FusionSignal[];
    calls.push({ url, size: batch.length, apiKey: new Headers(init.headers).get("x-api-key") });
    const status = statuses.shift() ?? 200;
    if (status === 0) throw new TypeError("fetch failed");
    if (status === 200) accepted.push(...batch);
    return new Response("", { status });
  }) as unknown as typeof globalThis.fetch;
  return { accepted, calls, fetch };
}

describe("the outbox", () => {
  it("stores a signal once by id and counts it in the day's totals once", () => {
    const signals = new Signals({ enabled: true, file: tempFile(), retentionDays: 90, forwarding: null });
    expect(signals.record(search("pump"), browser("a"))).toBe("recorded");
    const [stored] = signals.store.all();
    expect(signals.store.insert([stored!.signal], "client")).toBe(0);
    const report = signals.store.report("2000-01-01", "2999-12-31", 10);
    expect(report.totals.searches).toBe(1);
    expect(report.topQueries).toEqual([{ query: "pump", searches: 1, zeroResults: 0, clicks: 0, meanPosition: null }]);
  });

  it("counts a click or view of one item once per identity within the window, and drops a flood past the cap", () => {
    let now = Date.parse("2026-11-25T10:00:00Z");
    const signals = new Signals({ enabled: true, file: tempFile(), retentionDays: 90, forwarding: null, perMinute: 5, now: () => now });
    const click = { type: "click" as const, data: { docId: "D1", position: 0, query: "pump" } };
    expect(signals.record(click, browser("a"))).toBe("recorded");
    expect(signals.record(click, browser("a"))).toBe("repeat");
    expect(signals.record(click, browser("b"))).toBe("recorded");
    now += 31 * 60_000;
    expect(signals.record(click, browser("a"))).toBe("recorded");
    const outcomes = Array.from({ length: 8 }, (_, i) => signals.record(search(`q${i}`), browser("c")));
    expect(outcomes.filter((o) => o === "recorded")).toHaveLength(5);
    const report = signals.store.report("2026-11-25", "2026-11-25", 10);
    expect(report.totals).toMatchObject({ searches: 5, clicks: 3, dropped: 3, meanPosition: 1 });
  });

  it("records the signals of one turn of the event loop together, each with its own checks", async () => {
    const signals = new Signals({ enabled: true, file: tempFile(), retentionDays: 90, forwarding: null, perMinute: 3 });
    const click = { type: "click" as const, data: { docId: "D1", position: 0, query: "pump" } };
    // The search whose query is too long and whose count is negative is refused, and says so.
    expectConsoleError(/^Signal dropped: invalid/);
    const outcomes = await Promise.all([
      signals.recordSoon(click, browser("a")),
      signals.recordSoon(click, browser("a")),
      signals.recordSoon({ type: "search", data: { query: "x".repeat(300), numResults: -1, searchTime: 1, filters: [] } }, browser("b")),
      ...Array.from({ length: 4 }, (_, i) => signals.recordSoon(search(`q${i}`), browser("c"))),
    ]);
    expect(outcomes).toEqual(["recorded", "repeat", "invalid", "recorded", "recorded", "recorded", "dropped"]);
    expect(signals.store.all()).toHaveLength(4);
    expect(await signals.recordSoon(search("later"), browser("d"))).toBe("recorded");
  });

  it("is claimed by one process at a time: two stores on one file never take the same signal", () => {
    const file = tempFile();
    const one = new SqliteSignalStore(file);
    const two = new SqliteSignalStore(file);
    const signals = new Signals({ enabled: true, file, retentionDays: 90, forwarding: null, perMinute: 1000 });
    for (let i = 0; i < 25; i++) signals.record(search(`q${i}`), browser("a"));
    const now = Date.now();
    const taken = [one.claim(10, now, 60_000), two.claim(10, now, 60_000), one.claim(10, now, 60_000), two.claim(10, now, 60_000)].flat();
    expect(taken.map((t) => t.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    // A lease that ends (its process died) lets the signals go to another.
    expect(two.claim(10, now + 61_000, 60_000)).toHaveLength(10);
  });
});

describe("forwarding to Fusion", () => {
  it("sends batches of 10 as Fusion's signals, marks them sent, and sends nothing twice", async () => {
    const file = tempFile();
    const signals = new Signals({ enabled: true, file, retentionDays: 90, forwarding: null, perMinute: 1000 });
    for (let i = 0; i < 23; i++) signals.record(search(`q${i}`), browser("a"));
    const fusion = fakeFusion();
    const forwarder = new SignalForwarder(signals.store, { url: "http://fusion.test", collection: "parts", apiKey: "k1", timeoutMs: 1000, fetch: fusion.fetch });
    while (signals.store.pendingCount() > 0) await forwarder.step();
    expect(await forwarder.step()).toBe(1000);
    expect(fusion.calls.map((c) => c.size)).toEqual([10, 10, 3]);
    expect(fusion.calls.every((c) => c.url === "http://fusion.test/api/signals/parts" && c.apiKey === "k1")).toBe(true);
    expect(new Set(fusion.accepted.map((s) => s.id)).size).toBe(23);
    expect(fusion.accepted[0]).toMatchObject({ type: "request", params: { query: "q0", session: "axxxxxxxxxxxxxxxxxxxxx" } });
    expect(signals.store.all().every((row) => row.sentAt !== null)).toBe(true);
  });

  it("keeps a batch while Fusion is down or answers 5xx, backing off, and delivers it once when Fusion is back", async () => {
    let now = 1_000_000;
    const signals = new Signals({ enabled: true, file: tempFile(), retentionDays: 90, forwarding: null, now: () => now });
    for (let i = 0; i < 3; i++) signals.record(search(`q${i}`), browser("a"));
    const fusion = fakeFusion([0, 503, 500]);
    const forwarder = new SignalForwarder(signals.store, { url: "http://fusion.test", collection: "parts", timeoutMs: 1000, fetch: fusion.fetch, now: () => now, log: () => {} });
    const waits = [];
    for (let i = 0; i < 3; i++) {
      waits.push(await forwarder.step());
      expect(await forwarder.step()).toBe(1000); // nothing due while it waits
      now += waits.at(-1)!;
    }
    expect(waits).toEqual([500, 1000, 2000]);
    await forwarder.step();
    expect(fusion.accepted.map((s) => s.params.query)).toEqual(["q0", "q1", "q2"]);
    expect(signals.store.pendingCount()).toBe(0);
  });

  it("over real HTTP: a Fusion that never answers costs only the timeout, and the batch goes once it answers", async () => {
    const signals = new Signals({ enabled: true, file: tempFile(), retentionDays: 90, forwarding: null });
    signals.record(search("held"), browser("a"));
    let hang = true;
    const received: { apiKey: string | undefined; body: FusionSignal[] }[] = [];
    const fusion = http.createServer((req, res) => {
      if (hang) return; // the connection stays open and nothing is answered
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk));
      req.on("end", () => {
        received.push({ apiKey: req.headers["x-api-key"] as string | undefined, body: JSON.parse(body) as FusionSignal[] });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => fusion.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(fusion.address() as AddressInfo).port}`;
      const forwarder = new SignalForwarder(signals.store, { url, collection: "parts", apiKey: "k1", timeoutMs: 200, log: () => {} });
      expect(await forwarder.step()).toBe(500);
      expect(signals.store.pendingCount()).toBe(1);
      hang = false;
      const later = new SignalForwarder(signals.store, { url, collection: "parts", apiKey: "k1", timeoutMs: 2000, log: () => {}, now: () => Date.now() + 60_000 });
      await later.step();
      expect(received.map((r) => [r.apiKey, r.body.map((s) => s.params.query)])).toEqual([["k1", ["held"]]]);
      expect(signals.store.pendingCount()).toBe(0);
    } finally {
      fusion.closeAllConnections();
      await new Promise((resolve) => fusion.close(resolve));
    }
  });

  it("sets aside a batch Fusion refuses for what it is (4xx), rather than sending it forever", async () => {
    const signals = new Signals({ enabled: true, file: tempFile(), retentionDays: 90, forwarding: null });
    signals.record(search("q"), browser("a"));
    const fusion = fakeFusion([400]);
    const logs: string[] = [];
    const forwarder = new SignalForwarder(signals.store, { url: "http://fusion.test", collection: "parts", timeoutMs: 1000, fetch: fusion.fetch, log: (m) => logs.push(m) });
    await forwarder.step();
    expect(signals.store.pendingCount()).toBe(0);
    expect(logs[0]).toMatch(/refused a batch of 1 \(HTTP 400\)/);
  });

  it("prunes sent signals past the retention period, and every old one when nothing forwards them", () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const file = tempFile();
    const local = new Signals({ enabled: true, file, retentionDays: 30, forwarding: null, now: () => now });
    local.record(search("old"), browser("a"));
    now += 31 * 86_400_000;
    local.record(search("new"), browser("a"));
    expect(local.prune()).toBe(1);
    expect(local.store.all().map((r) => r.signal.type === "search" && r.signal.data.query)).toEqual(["new"]);
    expect(local.store.report("2025-01-01", "2027-01-01", 10).topQueries.map((q) => q.query)).toEqual(["new"]);
  });

  it("imports an earlier signals.jsonl once", () => {
    const file = tempFile();
    const legacy = path.join(path.dirname(file), "signals.jsonl");
    const line = { id: "2b1f0c9e-aaaa", type: "search", timestamp: "2026-11-20T10:00:00.000Z", data: { query: "valve", numResults: 0, searchTime: 1, filters: [] } };
    fs.writeFileSync(legacy, `${JSON.stringify(line)}\n{"torn`);
    const signals = new Signals({ enabled: true, file, retentionDays: 90, forwarding: null, legacyLog: legacy });
    expect(signals.store.all()).toHaveLength(1);
    expect(fs.existsSync(legacy)).toBe(false);
    expect(signals.store.report("2026-11-20", "2026-11-20", 5).zeroResultQueries[0]?.query).toBe("valve");
  });
});
