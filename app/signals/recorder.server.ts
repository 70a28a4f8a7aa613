import { randomUUID } from "node:crypto";
import { storeFailed } from "~/lib/store-health.server";
import type { SignalForwarder } from "./forwarder.server";
import { clampedClientTime, SignalSchema, type ClientSignal, type SignalInput } from "./model.server";
import type { SharedSignals } from "./shared.server";
import { dayOf, type SqliteSignalStore } from "./store.server";

/** Who a signal is from, as the web layer has established it. */
export interface SignalContext {
  /** The visitor's session (the signals cookie); null when there is none yet. */
  sessionId: string | null;
  /** The signed-in user; null with sign-in off or nobody signed in. */
  userId: string | null;
  /** What the duplicate and flood checks count by: the session, or the client when it has no valid session. */
  identity: string;
}

export type Outcome = "recorded" | "repeat" | "dropped" | "off" | "invalid";

export interface RecorderOptions {
  enabled: boolean;
  /** Signals a minute one identity may cause; the rest are dropped and counted. */
  perMinute: number;
  /** Within this, a second click or view of the same item by the same identity is not counted. */
  repeatWindowMs: number;
  now: () => number;
}

/**
 * What makes a signal the repeat of one counted shortly before: a click or view of the same item
 * (a reload, the browser's Back and Forward, a replayed link), the same facet click (a reload).
 */
export function repeatKey(input: SignalInput): string | null {
  switch (input.type) {
    case "click":
      return `click:${input.data.action ?? "result"}:${input.data.docId}`;
    case "view":
      return `view:${input.data.docId}`;
    case "facet":
      return `facet:${JSON.stringify([input.data.action, input.data.facetName, input.data.facetValue, input.data.query])}`;
    default:
      return null;
  }
}

/**
 * Records the usage signals into the outbox: the server's (a page's) and a browser's batches, with
 * the repeat check (the shared one, when replicas share a store) and the per-minute cap of a
 * flood. Recording is synchronous (one SQLite transaction: the checks and an insert) and never
 * throws into the page that causes it.
 */
export class SignalRecorder {
  private readonly soon: { input: SignalInput; context: SignalContext; resolve: (outcome: Outcome) => void }[] = [];
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly store: SqliteSignalStore,
    private readonly shared: SharedSignals,
    private readonly forwarder: SignalForwarder | null,
    private readonly options: RecorderOptions,
  ) {}

  /**
   * Records a signal the server has seen happen. A click or view of an item the same identity
   * opened within the repeat window is the one already counted; past the per-minute cap, signals
   * are dropped and counted. `sharedRepeat` is the shared store's repeat check, when it made one.
   */
  record(input: SignalInput, context: SignalContext, sharedRepeat?: boolean): Outcome {
    if (!this.options.enabled) return "off";
    try {
      const now = this.options.now();
      const parsed = SignalSchema.safeParse({
        ...input,
        id: randomUUID(),
        timestamp: new Date(now).toISOString(),
        sessionId: context.sessionId,
        userId: context.userId,
      });
      if (!parsed.success) {
        console.error("Signal dropped: invalid", parsed.error.issues);
        return "invalid";
      }
      const key = repeatKey(input);
      // The checks and the insert are one transaction: one commit a signal, and no other worker in between.
      const outcome = this.store.atomically((): Outcome => {
        if (sharedRepeat ?? (key !== null && this.store.seen(context.identity, key, this.options.repeatWindowMs, now))) return "repeat";
        if (!this.allow(context.identity, 1, now)) return "dropped";
        this.store.insert([parsed.data], "server");
        return "recorded";
      });
      if (outcome === "recorded") this.forwarder?.kick();
      return outcome;
    } catch (error) {
      storeFailed("sqlite", "signals", error);
      return "invalid";
    }
  }

  /**
   * Records like {@link record}, in one transaction with the other signals recorded in the same
   * turn of the event loop (the pages of several requests): one commit for them all. The commit
   * comes at the end of that turn, before the process waits for anything else.
   */
  recordSoon(input: SignalInput, context: SignalContext): Promise<Outcome> {
    if (!this.options.enabled) return Promise.resolve("off");
    return new Promise((resolve) => {
      if (this.soon.length === 0) setImmediate(() => this.recordWaiting());
      this.soon.push({ input, context, resolve });
    });
  }

  private async recordWaiting(): Promise<void> {
    const waiting = this.soon.splice(0);
    const repeats = await this.sharedRepeats(waiting.map(({ input, context }) => ({ identity: context.identity, key: repeatKey(input) })));
    let outcomes: Outcome[];
    try {
      // Each signal's own transaction is a savepoint of this one: an error undoes that signal only.
      outcomes = this.store.atomically(() => waiting.map(({ input, context }, i) => this.record(input, context, repeats?.[i])));
    } catch (error) {
      storeFailed("sqlite", "signals", error);
      outcomes = waiting.map(() => "invalid");
    }
    waiting.forEach(({ resolve }, i) => resolve(outcomes[i]!));
  }

  /**
   * Stores a browser's batch (already validated) under the server's session and user: a replayed
   * batch stores nothing twice. Returns how many were new, or null when the identity is over its cap.
   */
  acceptFromClient(signals: readonly ClientSignal[], context: SignalContext): number | null {
    const now = this.options.now();
    // The server's clock dates every row (retention, the day it counts on); the browser's is data.
    const full = signals.map((s) =>
      SignalSchema.parse({ ...s, timestamp: new Date(now).toISOString(), clientTimestamp: clampedClientTime(s.timestamp, now), sessionId: context.sessionId, userId: context.userId }),
    );
    const added = this.store.atomically(() => (this.allow(context.identity, signals.length, now) ? this.store.insert(full, "client") : null));
    if (added) this.forwarder?.kick();
    return added;
  }

  /**
   * The shared repeat check of each signal that has a repeat key (undefined for the others); all
   * undefined while this replica checks alone (nothing shared, or the shared store failing).
   * Signals without a key (searches) cost the shared store nothing.
   */
  private async sharedRepeats(checks: { identity: string; key: string | null }[]): Promise<(boolean | undefined)[] | undefined> {
    const keyed = checks.flatMap((check, i) => (check.key === null ? [] : [{ i, identity: check.identity, key: check.key }]));
    if (keyed.length === 0) return undefined;
    const repeats = await this.shared.repeats(keyed, this.options.repeatWindowMs, this.options.now());
    if (!repeats) return undefined;
    const out: (boolean | undefined)[] = checks.map(() => undefined);
    keyed.forEach(({ i }, n) => (out[i] = repeats[n]));
    return out;
  }

  /**
   * Whether `identity` may add `n` signals this minute; what is refused is counted as dropped. The
   * count is in the signals database, so every worker of the portal counts against one cap.
   */
  private allow(identity: string, n: number, now: number): boolean {
    if (this.store.admit(identity, n, this.options.perMinute, now)) return true;
    this.store.countDropped(dayOf(now), n);
    this.shared.dropped(dayOf(now), n);
    return false;
  }

  /** Work under way that records a signal (the web layer's lookups of session and user). */
  track(work: Promise<unknown>): void {
    const settled = work.catch(() => undefined).finally(() => this.inFlight.delete(settled));
    this.inFlight.add(settled);
  }

  /** Resolves when every signal whose recording has started has landed (tests). */
  settled(): Promise<unknown> {
    return Promise.all(this.inFlight);
  }
}
