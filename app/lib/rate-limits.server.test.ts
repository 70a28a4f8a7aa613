import { describe, expect, it } from "vitest";
import { RateLimits } from "./rate-limits.server";

describe("RateLimits (in memory)", () => {
  it("refuses a key past its allowance with the seconds to wait, and no other key", async () => {
    const limits = new RateLimits({ signIns: 3, requests: 100 });
    const x = [{ kind: "signIns" as const, key: "client:x" }];
    for (let i = 0; i < 3; i++) expect(await limits.take(x)).toBeNull();
    const refusal = await limits.take(x);
    expect(refusal?.kind).toBe("signIns");
    expect(refusal?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refusal?.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(await limits.take([{ kind: "signIns", key: "client:y" }])).toBeNull();
    expect(await limits.take([{ kind: "requests", key: "client:x" }])).toBeNull();
  });

  it("leaves an allowance of 0 unlimited", async () => {
    const limits = new RateLimits({ beacons: 0 });
    for (let i = 0; i < 200; i++) expect(await limits.take([{ kind: "beacons", key: "k" }])).toBeNull();
  });
});
