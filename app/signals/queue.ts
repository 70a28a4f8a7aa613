/**
 * The browser's queue of usage signals (details-bom-signin §4 "Signals", §7 "Beacon", §9): signals
 * wait in batches of 10, a batch goes out when full or 5 s after its first signal, a batch that
 * fails is tried again up to 3 times, and whatever is waiting when the page is hidden leaves with
 * `navigator.sendBeacon`. Only what the server cannot see itself goes through it (the time spent
 * on a page, a type-ahead pick); everything else is recorded by the server. Plain TypeScript with
 * its outside world passed in, so it is small in the page's bundle and testable with fake timers.
 */

export interface QueuedSignal {
  id: string;
  timestamp: string;
  type: "view" | "typeahead";
  data: Record<string, unknown>;
}

export interface QueueOptions {
  /** POSTs a batch body; resolves true when it was taken (2xx), false to try again. */
  send: (body: string) => Promise<boolean>;
  /** Hands a batch body to the browser to send as the page goes away; false when it would not. */
  beacon: (body: string) => boolean;
  enabled: boolean;
  batchSize?: number;
  flushMs?: number;
  maxRetries?: number;
  source?: string;
  version?: string;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

export class SignalQueue {
  private waiting: { signal: QueuedSignal; tries: number }[] = [];
  private timer: unknown = null;
  private readonly o: Required<QueueOptions>;

  constructor(options: QueueOptions) {
    this.o = {
      batchSize: 10,
      flushMs: 5000,
      maxRetries: 3,
      source: "crib-search-web",
      version: "1",
      setTimer: (fn, ms) => setTimeout(fn, ms),
      clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
      ...options,
    };
  }

  get size(): number {
    return this.waiting.length;
  }

  push(signal: QueuedSignal): void {
    if (!this.o.enabled) return;
    this.waiting.push({ signal, tries: 0 });
    if (this.waiting.length >= this.o.batchSize) void this.flush();
    else this.timer ??= this.o.setTimer(() => void this.flush(), this.o.flushMs);
  }

  private body(entries: { signal: QueuedSignal }[]): string {
    return JSON.stringify({ signals: entries.map((e) => e.signal), source: this.o.source, version: this.o.version });
  }

  /** Sends the waiting signals, a batch at a time; a failed batch waits for the next flush. */
  async flush(): Promise<void> {
    if (this.timer !== null) this.o.clearTimer(this.timer);
    this.timer = null;
    const failed: typeof this.waiting = [];
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.o.batchSize);
      const ok = await this.o.send(this.body(batch)).catch(() => false);
      if (ok) continue;
      for (const entry of batch) if (++entry.tries <= this.o.maxRetries) failed.push(entry);
    }
    this.waiting.unshift(...failed);
    if (this.waiting.length > 0) this.timer = this.o.setTimer(() => void this.flush(), this.o.flushMs);
  }

  /** The page is going away: everything waiting leaves with the beacon. */
  hide(): void {
    if (this.timer !== null) this.o.clearTimer(this.timer);
    this.timer = null;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.o.batchSize);
      this.o.beacon(this.body(batch));
    }
  }
}

/** A random event id the API accepts. */
export function eventId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
