import { describe, expect, it } from "vitest";
import { CircuitBreaker } from "./circuit-breaker";

function clock() {
  let t = 1_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe("CircuitBreaker", () => {
  it("stays closed while requests succeed, and below the failure threshold", () => {
    const breaker = new CircuitBreaker({ failureThreshold: 3 });
    breaker.failure();
    breaker.failure();
    breaker.success();
    breaker.failure();
    breaker.failure();
    expect(breaker.state).toBe("closed");
    expect(breaker.tryAcquire()).toBe(true);
  });

  it("opens after the threshold of consecutive failures and refuses requests during the cool-down", () => {
    const c = clock();
    const breaker = new CircuitBreaker({ failureThreshold: 3, cooldownMs: 10_000, now: c.now });
    for (let i = 0; i < 3; i++) breaker.failure();
    expect(breaker.state).toBe("open");
    expect(breaker.tryAcquire()).toBe(false);
    c.advance(9_999);
    expect(breaker.tryAcquire()).toBe(false);
    expect(breaker.snapshot()).toMatchObject({ state: "open", consecutiveFailures: 3, retryAt: 11_000 });
  });

  it("lets exactly one trial through after the cool-down; success closes it", () => {
    const c = clock();
    const breaker = new CircuitBreaker({ failureThreshold: 2, cooldownMs: 5_000, now: c.now });
    breaker.failure();
    breaker.failure();
    c.advance(5_000);
    expect(breaker.state).toBe("half-open");
    expect(breaker.tryAcquire()).toBe(true);
    expect(breaker.tryAcquire()).toBe(false);
    breaker.success();
    expect(breaker.state).toBe("closed");
    expect(breaker.tryAcquire()).toBe(true);
  });

  it("reopens for a full cool-down when the trial fails", () => {
    const c = clock();
    const breaker = new CircuitBreaker({ failureThreshold: 2, cooldownMs: 5_000, now: c.now });
    breaker.failure();
    breaker.failure();
    c.advance(5_000);
    expect(breaker.tryAcquire()).toBe(true);
    breaker.failure();
    expect(breaker.state).toBe("open");
    c.advance(4_999);
    expect(breaker.tryAcquire()).toBe(false);
    c.advance(1);
    expect(breaker.tryAcquire()).toBe(true);
  });

  it("frees the trial slot when a trial ends without an answer", () => {
    const c = clock();
    const breaker = new CircuitBreaker({ failureThreshold: 1, cooldownMs: 1_000, now: c.now });
    breaker.failure();
    c.advance(1_000);
    expect(breaker.tryAcquire()).toBe(true);
    breaker.release();
    expect(breaker.tryAcquire()).toBe(true);
  });

  it("times the cool-down from the opening: failures of requests already under way do not extend it", () => {
    const c = clock();
    const breaker = new CircuitBreaker({ failureThreshold: 2, cooldownMs: 5_000, now: c.now });
    breaker.failure();
    breaker.failure();
    c.advance(3_000);
    breaker.failure(); // a request that was sent before the breaker opened, timing out now
    c.advance(2_000);
    expect(breaker.state).toBe("half-open");
  });
});
