export type BreakerState = "closed" | "open" | "half-open";

export interface BreakerOptions {
  /** Consecutive failures that open the breaker. */
  failureThreshold?: number;
  /** How long an open breaker skips the engine before it tries one request again. */
  cooldownMs?: number;
  now?: () => number;
  /** Told when this breaker opens or closes by what it saw itself (not by `adopt`). */
  onChange?: (change: BreakerChange) => void;
}

/**
 * An opening or a closing, as told to the other workers, with its time: the time of an opening fixes
 * the cool-down, and of two changes the later one wins, whatever order they arrive in.
 */
export interface BreakerChange {
  state: "open" | "closed";
  at: number;
}

export function isBreakerChange(value: unknown): value is BreakerChange {
  if (typeof value !== "object" || value === null) return false;
  const change = value as { state?: unknown; at?: unknown };
  return (change.state === "open" || change.state === "closed") && typeof change.at === "number" && Number.isFinite(change.at);
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
  /** When it last opened or closed, by its own finding or another worker's. */
  private changedAt = Number.NEGATIVE_INFINITY;
  private readonly threshold: number;
  private readonly cooldownMs: number;
  private readonly now: () => number;
  private readonly onChange: (change: BreakerChange) => void;

  constructor(options: BreakerOptions = {}) {
    this.threshold = options.failureThreshold ?? 3;
    this.cooldownMs = options.cooldownMs ?? 30_000;
    this.now = options.now ?? Date.now;
    this.onChange = options.onChange ?? (() => undefined);
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
    const wasOpen = this.openedAt !== null;
    this.failures = 0;
    this.openedAt = null;
    this.trialInFlight = false;
    if (wasOpen) {
      this.changedAt = this.now();
      this.onChange({ state: "closed", at: this.changedAt });
    }
  }

  failure(): void {
    this.failures++;
    const wasTrial = this.trialInFlight;
    this.trialInFlight = false;
    // Failures of requests that were already under way when it opened do not restart the cool-down.
    if (wasTrial || (this.openedAt === null && this.failures >= this.threshold)) {
      this.openedAt = this.changedAt = this.now();
      this.onChange({ state: "open", at: this.openedAt });
    }
  }

  /**
   * Takes over what another worker's breaker saw, unless this one changed since: an opening (the
   * engine is down for everyone, so nobody else waits for the timeout to find out), or a closing
   * (a request got through). A trial of this breaker's own that is still under way reports as usual.
   */
  adopt(change: BreakerChange): void {
    if (change.at <= this.changedAt) return;
    this.changedAt = change.at;
    if (change.state === "closed") {
      this.failures = 0;
      this.openedAt = null;
    } else {
      this.failures = Math.max(this.failures, this.threshold);
      this.openedAt = change.at;
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
