import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// The other workers, as the search service sees them.
const peers = vi.hoisted(() => ({
  published: [] as [string, unknown][],
  listeners: new Map<string, (payload: unknown) => void>(),
}));
vi.mock("~/lib/peers.server", () => ({
  workerPeers: () => ({
    publish: (topic: string, payload: unknown) => peers.published.push([topic, payload]),
    subscribe: (topic: string, listener: (payload: unknown) => void) => peers.listeners.set(topic, listener),
  }),
}));

const saved = { ...process.env };
beforeEach(() => {
  vi.resetModules();
  peers.published.length = 0;
  peers.listeners.clear();
  Object.assign(process.env, {
    FUSION_URL: "http://127.0.0.1:9",
    FUSION_APP: "parts",
    FUSION_BREAKER_THRESHOLD: "2",
    FUSION_BREAKER_COOLDOWN_MS: "60000",
    BACKEND_URL: "http://127.0.0.1:9",
  });
});
afterEach(() => {
  process.env = { ...saved };
});

describe("the search service's breaker among the server's workers", () => {
  it("tells the other workers when it opens, and when it closes", async () => {
    const { getSearchService } = await import("./service.server");
    const { breaker } = getSearchService();
    breaker.failure();
    expect(peers.published).toEqual([]);
    breaker.failure();
    expect(peers.published).toEqual([["breaker", { state: "open", at: expect.any(Number) }]]);
    breaker.success();
    expect(peers.published.at(-1)).toEqual(["breaker", { state: "closed", at: expect.any(Number) }]);
  });

  it("opens and closes when another worker's breaker does, and ignores anything else", async () => {
    const { getSearchService } = await import("./service.server");
    const service = getSearchService();
    const told = peers.listeners.get("breaker")!;
    told({ state: "open", at: Date.now() });
    expect(service.breaker.state).toBe("open");
    expect(service.status().serving).toBe("backend");
    told({ state: "closed", at: Date.now() + 1 });
    expect(service.breaker.state).toBe("closed");
    told({ state: "open" });
    told({ state: "open", at: "soon" });
    told({ state: "half-open", at: Date.now() + 2 });
    told("open");
    told(null);
    expect(service.breaker.state).toBe("closed");
    // What it was told is not told again.
    expect(peers.published).toEqual([]);
  });

  it("has no breaker to share without Fusion", async () => {
    delete process.env.FUSION_URL;
    const { getSearchService } = await import("./service.server");
    expect(getSearchService().status().primary).toBeNull();
    expect(peers.listeners.size).toBe(0);
  });
});
