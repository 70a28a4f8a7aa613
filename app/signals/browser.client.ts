/**
 * The usage signals only the browser sees, in one module that only the browser loads (a `.client`
 * module: the server build gets none of it): the page's queue to POST /api/signals, the time spent
 * on an item page and a pick from the type-ahead list. Everything else is recorded by the server.
 *
 * The queue (details-bom-signin §4 "Signals", §7 "Beacon", §9): signals wait in batches of 10, a
 * batch goes out when full or 5 s after its first signal, a batch that fails is tried again up to
 * 3 times, and whatever is waiting when the page is hidden leaves with `navigator.sendBeacon`.
 * Plain TypeScript with its outside world passed in, so it is small in the page's bundle and
 * testable with fake timers.
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

let queue: SignalQueue | null = null;

/**
 * The page's one queue of signals, sending to `endpoint` (the portal's POST /api/signals, named by
 * its caller from search/paths.ts); whatever waits when the page is hidden or left leaves with the
 * beacon. Made on first use, in the browser only.
 */
export function pageQueue(endpoint: string, enabled: boolean): SignalQueue {
  if (queue) return queue;
  const made = new SignalQueue({
    enabled,
    send: (body) =>
      fetch(endpoint, { method: "POST", headers: { "Content-Type": "application/json" }, body, keepalive: true }).then(
        (r) => r.ok || (r.status >= 400 && r.status < 500 && r.status !== 429),
      ),
    beacon: (body) => navigator.sendBeacon(endpoint, new Blob([body], { type: "application/json" })),
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") made.hide();
  });
  queue = made;
  return made;
}

/**
 * The time spent on an item page (the view itself is the server's): sent as a view signal with
 * its `viewDuration` when the user leaves the page or hides it. Returns the way to stop watching,
 * for an effect's clean-up.
 */
export function watchViewDuration(docId: string | null, enabled: boolean, endpoint: string): (() => void) | undefined {
  if (!docId || !enabled) return undefined;
  const q = pageQueue(endpoint, enabled);
  let shownAt = performance.now();
  let visibleMs = 0;
  const record = () => {
    visibleMs += performance.now() - shownAt;
    if (visibleMs < 500) return;
    q.push({ id: eventId(), timestamp: new Date().toISOString(), type: "view", data: { docId, viewDuration: Math.round(visibleMs) } });
    visibleMs = 0;
  };
  const onVisibility = () => {
    if (document.visibilityState === "hidden") {
      record();
      q.hide();
    } else shownAt = performance.now();
  };
  document.addEventListener("visibilitychange", onVisibility);
  return () => {
    document.removeEventListener("visibilitychange", onVisibility);
    // Left for another page of the portal: the queue sends it with its next batch.
    if (document.visibilityState === "visible") record();
  };
}

/** A suggestion picked from the header search box's type-ahead list. */
export interface TypeaheadPick {
  /** What had been typed. */
  query: string;
  suggestion: string;
  /** Its place in the list, from 0. */
  position: number;
}

/** The pick as POST /api/signals takes it (a `typeahead` signal; Fusion gets it as a click on `typeahead`). */
function typeaheadSignal(pick: TypeaheadPick, now = new Date()): QueuedSignal {
  return { id: eventId(), timestamp: now.toISOString(), type: "typeahead", data: { docId: "typeahead", query: pick.query, suggestion: pick.suggestion, position: pick.position } };
}

/**
 * Records a type-ahead pick, which only the browser sees (the search it leads to is an ordinary
 * one to the server), through the page's queue; nothing with signals off (the root loader's
 * `signals`).
 */
export function recordTypeaheadPick(pick: TypeaheadPick, enabled: boolean, queue: SignalQueue): void {
  if (enabled) queue.push(typeaheadSignal(pick));
}
