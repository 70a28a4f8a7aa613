export type BreakerState = "closed" | "open" | "half-open";

export interface BreakerOptions {
  /** Consecutive failures that open the breaker. */
  failureThreshold?: number;
  /** How long an open breaker skips the engine before it tries one request again. */
  cooldownMs?: number;
  now?: () => number;
}

export interface BreakerSnapshot {
  state: BreakerState;
  consecutiveFailures: number;
  openedAt: number | null;
  retryAt: number | null;
}

/**
 * Stops sending every request into a dead or hanging engine: after `failureThreshold` failures in a
 * row it opens and callers go straight to the fallback; after `cooldownMs` one trial request is let
 * through (half-open) — success closes it, failure opens it for another cool-down.
 */
export class CircuitBreaker {
  private failures = 0;
  private openedAt: number | null = null;
  private trialInFlight = false;
  private readonly threshold: number;
  private readonly cooldownMs: number;
  private readonly now: () => number;

  constructor(options: BreakerOptions = {}) {
    this.threshold = options.failureThreshold ?? 3;
    this.cooldownMs = options.cooldownMs ?? 30_000;
    this.now = options.now ?? Date.now;
  }

  get state(): BreakerState {
    if (this.openedAt === null) return "closed";
    return this.now() >= this.openedAt + this.cooldownMs ? "half-open" : "open";
  }

  /** Whether a request may go to the engine now; in half-open state only one trial at a time. */
  tryAcquire(): boolean {
    const state = this.state;
    if (state === "closed") return true;
    if (state === "open" || this.trialInFlight) return false;
    this.trialInFlight = true;
    return true;
  }

  success(): void {
    this.failures = 0;
    this.openedAt = null;
    this.trialInFlight = false;
  }

  failure(): void {
    this.failures++;
    const wasTrial = this.trialInFlight;
    this.trialInFlight = false;
    // Failures of requests that were already under way when it opened do not restart the cool-down.
    if (wasTrial || (this.openedAt === null && this.failures >= this.threshold)) {
      this.openedAt = this.now();
    }
  }

  /** A request that ended without telling anything about the engine (e.g. the user went away). */
  release(): void {
    this.trialInFlight = false;
  }

  snapshot(): BreakerSnapshot {
    return {
      state: this.state,
      consecutiveFailures: this.failures,
      openedAt: this.openedAt,
      retryAt: this.openedAt === null ? null : this.openedAt + this.cooldownMs,
    };
  }
}
