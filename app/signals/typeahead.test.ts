import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SignalBatchSchema } from "./model.server";
import { recordTypeaheadPick, SignalQueue } from "./browser.client";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function queue() {
  const sent: string[] = [];
  const q = new SignalQueue({ enabled: true, send: async (body) => (sent.push(body), true), beacon: () => true });
  return { q, sent };
}

describe("a type-ahead pick in the header search box", () => {
  it("goes through the queue as a typeahead signal POST /api/signals takes", async () => {
    const { q, sent } = queue();
    recordTypeaheadPick({ query: "pum", suggestion: "pump seal", position: 2 }, true, q);
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(sent).toHaveLength(1);
    const batch = SignalBatchSchema.parse(JSON.parse(sent[0]!));
    expect(batch.signals).toEqual([
      { id: expect.stringMatching(/^[0-9a-f]{32}$/), timestamp: expect.any(String), type: "typeahead", data: { docId: "typeahead", query: "pum", suggestion: "pump seal", position: 2 } },
    ]);
  });

  it("is not recorded with signals off", async () => {
    const { q, sent } = queue();
    recordTypeaheadPick({ query: "pum", suggestion: "pump seal", position: 0 }, false, q);
    await vi.runAllTimersAsync();
    expect([q.size, sent]).toEqual([0, []]);
  });
});
