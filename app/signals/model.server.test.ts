import { describe, expect, it } from "vitest";
import { MAX_FILTERS } from "~/lib/limits";
import { ClientSignalSchema, SignalBatchSchema, SignalSchema, toFusionSignal } from "./model.server";

const envelope = { id: "0f9c2a4e-1", timestamp: "2026-11-25T10:00:00.000Z", sessionId: "s".repeat(22), userId: null };

describe("the signal model", () => {
  it("tells the types apart by `type` and fills the spec's defaults", () => {
    const conversion = SignalSchema.parse({ ...envelope, type: "conversion", data: { docId: "D1", value: 12.5 } });
    expect(conversion.data).toEqual({ docId: "D1", value: 12.5, currency: "USD", quantity: 1 });
    const typeahead = SignalSchema.parse({ ...envelope, type: "typeahead", data: { query: "pum", suggestion: "pump", position: 2 } });
    expect(typeahead.data).toMatchObject({ docId: "typeahead" });
    const click = SignalSchema.parse({ ...envelope, type: "click", data: { docId: "D1", position: 3 } });
    expect(click.data).toMatchObject({ action: "result" });
    expect(SignalSchema.safeParse({ ...envelope, type: "search", data: { docId: "D1" } }).success).toBe(false);
    expect(SignalSchema.safeParse({ ...envelope, type: "purchase", data: {} }).success).toBe(false);
  });

  it("bounds what a signal carries: texts are cut, lists keep their first entries", () => {
    const search = SignalSchema.parse({
      ...envelope,
      type: "search",
      data: {
        query: "q".repeat(5000),
        numResults: 1,
        searchTime: 3,
        filters: Array.from({ length: 1000 }, (_, i) => ({ field: "category_s", value: `v${i}`.repeat(100), type: "include" })),
      },
    });
    expect(search.type === "search" && search.data.query.length).toBe(200);
    // As many filters as a search may have (MAX_FILTERS), each value cut to 100 characters.
    expect(search.type === "search" && search.data.filters.length).toBe(MAX_FILTERS);
    expect(JSON.stringify(search).length).toBeLessThan(4000);
  });

  it("takes from browsers only view durations and type-ahead picks, never a session or user", () => {
    expect(ClientSignalSchema.safeParse({ id: "abcdefgh", timestamp: envelope.timestamp, type: "view", data: { docId: "D1" } }).success).toBe(false);
    expect(ClientSignalSchema.safeParse({ id: "abcdefgh", timestamp: envelope.timestamp, type: "search", data: {} }).success).toBe(false);
    const parsed = ClientSignalSchema.parse({ id: "abcdefgh", timestamp: envelope.timestamp, type: "view", userId: "admin", data: { docId: "D1", viewDuration: 1200 } });
    expect(parsed).not.toHaveProperty("userId");
    expect(SignalBatchSchema.safeParse({ signals: [], source: "web", version: "1" }).success).toBe(false);
    expect(ClientSignalSchema.safeParse({ id: "../../x", timestamp: envelope.timestamp, type: "typeahead", data: { query: "a", suggestion: "b", position: 0 } }).success).toBe(false);
  });

  it("becomes Fusion's signal: its types, with the session, the user and Fusion's query id in params", () => {
    const search = SignalSchema.parse({
      ...envelope,
      userId: "u1",
      type: "search",
      data: { query: "pump", numResults: 4, searchTime: 9, filters: [{ field: "category_s", value: "Pumps", type: "exclude" }], fusionQueryId: "Q-1" },
    });
    expect(toFusionSignal(search)).toEqual({
      id: envelope.id,
      type: "request",
      timestamp: envelope.timestamp,
      params: {
        query: "pump",
        numResults: 4,
        searchTime: 9,
        filters: [{ field: "category_s", value: "Pumps", type: "exclude" }],
        filterQueries: ["-category_s:Pumps"],
        session: envelope.sessionId,
        user_id: "u1",
        fusion_query_id: "Q-1",
      },
    });
    const pick = SignalSchema.parse({ ...envelope, type: "typeahead", data: { query: "pum", suggestion: "pump", position: 0 } });
    expect(toFusionSignal(pick)).toMatchObject({ type: "click", params: { docId: "typeahead", session: envelope.sessionId } });
    expect(toFusionSignal(pick).params).not.toHaveProperty("user_id");
  });
});
