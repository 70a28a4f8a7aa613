import { createHmac, randomUUID } from "node:crypto";
import fs from "node:fs";
import { log } from "~/lib/log.server";
import { storeFailed, storeWorked } from "~/lib/store-health.server";
import { SignalForwarder, type ForwarderOptions } from "./forwarder.server";
import { clampedClientTime, SignalSchema, type ClientSignal, type Signal, type SignalInput } from "./model.server";
import type { PgSharedSignals } from "./shared-pg.server";
import { dayOf, SqliteSignalStore, type AnalyticsReport } from "./store.server";

export type { Signal, SignalInput } from "./model.server";

/** Who a signal is from, as the web layer has established it. */
export interface SignalContext {
  /** The visitor's session (the signals cookie); null when there is none yet. */
  sessionId: string | null;
  /** The signed-in user; null with sign-in off or nobody signed in. */
  userId: string | null;
  /** What the duplicate and flood checks count by: the session, or the client when it has no valid session. */
  identity: string;
}

export interface SignalsOptions {
  enabled: boolean;
  /** The outbox's SQLite file. */
  file: string;
  retentionDays: number;
  /** Fusion's Signals API; null keeps signals local. */
  forwarding: Omit<ForwarderOptions, "now"> | null;
  /** Signals a minute one identity may cause; the rest are dropped and counted. */
  perMinute?: number;
  /** The most signals the database keeps: past it the oldest go first, counted (SIGNALS_MAX_ROWS). */
  maxRows?: number;
  /** Within this, a second click or view of the same item by the same identity is not counted. */
  repeatWindowMs?: number;
  /** signals.jsonl of earlier versions, imported once when present. */
  legacyLog?: string;
  /** What replicas share (DATABASE_URL): the repeat check, the analytics totals, the cookie's key. */
  shared?: PgSharedSignals | null;
  /** The secret every derived key comes from (SESSION_SECRET): the same on every replica. */
  keySecret?: string;
  now?: () => number;
}

/** SIGNALS_MAX_ROWS's default: about 1 GB of signals, 90 days of a busy plant's use. */
export const DEFAULT_MAX_ROWS = 2_000_000;

/** How often a server process folds new signals into the analytics totals. */
const FOLD_EVERY_MS = 2000;

export type Outcome = "recorded" | "repeat" | "dropped" | "off" | "invalid";

/**
 * What makes a signal the repeat of one counted shortly before: a click or view of the same item
 * (a reload, the browser's Back and Forward, a replayed link), the same facet click (a reload).
 */
function repeatKey(input: SignalInput): string | null {
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
 * The portal's usage signals: recorded into the outbox, forwarded to Fusion in the background,
 * folded into the totals `/analytics` reads. Recording is synchronous (one SQLite transaction:
 * the checks and an insert) and never throws into the page that causes it.
 */
export class Signals {
  readonly store: SqliteSignalStore;
  readonly forwarder: SignalForwarder | null;
  private readonly perMinute: number;
  private readonly repeatWindowMs: number;
  private readonly now: () => number;
  private timers: NodeJS.Timeout[] = [];
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly soon: { input: SignalInput; context: SignalContext; resolve: (outcome: Outcome) => void }[] = [];
  private readonly shared: PgSharedSignals | null;
  private readonly secrets = new Map<string, string>();
  private sharedFold: Promise<unknown> | null = null;
  /** Signals dropped by the per-minute cap and not yet in the shared totals, by day. */
  private readonly droppedUnshared = new Map<string, number>();
  /** The shared store's tables exist (the server prepared the services before listening). */
  private sharedReady = false;
  /** The upkeep of the analytics periods under way (at most one per process). */
  private upkeeping: Promise<void> | null = null;

  constructor(readonly options: SignalsOptions) {
    this.now = options.now ?? Date.now;
    this.perMinute = options.perMinute ?? 120;
    this.repeatWindowMs = options.repeatWindowMs ?? 30 * 60_000;
    this.store = new SqliteSignalStore(options.file);
    this.shared = options.shared ?? null;
    this.forwarder = options.forwarding ? new SignalForwarder(this.store, { ...options.forwarding, now: this.now }) : null;
    if (options.legacyLog) this.importLegacy(options.legacyLog);
  }

  get enabled(): boolean {
    return this.options.enabled;
  }

  /** Loads what must be at hand before the first request: the shared cookie key when no SESSION_SECRET gives one. */
  async prepare(): Promise<void> {
    if (this.shared && !this.options.keySecret) this.secrets.set("session-cookie", await this.shared.secret("session-cookie"));
    this.sharedReady = true;
  }

  /**
   * A secret key of the signals (the cookie's signature): derived from SESSION_SECRET when it is
   * set, else the shared store's, else this outbox's own, made on first use.
   */
  secret(name: string): string {
    let value = this.secrets.get(name);
    if (value) return value;
    if (this.options.keySecret) value = createHmac("sha256", this.options.keySecret).update(`signals:${name}`).digest("base64url");
    // A key of this replica's own would differ from the others': the shared one must be loaded first.
    else if (this.shared) throw new Error(`The shared key "${name}" was not loaded: call prepare() first`);
    else value = this.store.secret(name);
    this.secrets.set(name, value);
    return value;
  }

  /**
   * Records a signal the server has seen happen. A click or view of an item the same identity
   * opened within the repeat window is the one already counted; past the per-minute cap, signals
   * are dropped and counted.
   */
  record(input: SignalInput, context: SignalContext, sharedRepeat?: boolean): Outcome {
    if (!this.options.enabled) return "off";
    try {
      const now = this.now();
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
        // The repeat check was the shared store's, when there is one.
        if (sharedRepeat ?? (key !== null && this.store.seen(context.identity, key, this.repeatWindowMs, now))) return "repeat";
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
    const now = this.now();
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
   * undefined without a shared store, or while it fails (then this replica checks alone, as on one
   * machine). Signals without a key (searches) cost the shared store nothing.
   */
  private async sharedRepeats(checks: { identity: string; key: string | null }[]): Promise<(boolean | undefined)[] | undefined> {
    const keyed = checks.flatMap((check, i) => (check.key === null ? [] : [{ i, identity: check.identity, key: check.key }]));
    if (!this.shared || !this.sharedReady || keyed.length === 0) return undefined;
    try {
      const repeats = await this.shared.repeats(keyed, this.repeatWindowMs, this.now());
      storeWorked("postgres", "signals");
      const out: (boolean | undefined)[] = checks.map(() => undefined);
      keyed.forEach(({ i }, n) => (out[i] = repeats[n]));
      return out;
    } catch (error) {
      // Logged when the store starts failing and when it works again, not per batch (store-health).
      storeFailed("postgres", "signals", error);
      return undefined;
    }
  }

  /**
   * Whether `identity` may add `n` signals this minute; what is refused is counted as dropped. The
   * count is in the signals database, so every worker of the portal counts against one cap.
   */
  private allow(identity: string, n: number, now: number): boolean {
    if (this.store.admit(identity, n, this.perMinute, now)) return true;
    this.store.countDropped(dayOf(now), n);
    // The shared totals have no outbox row of it to fold: added up here, written with the next fold.
    if (this.shared) this.droppedUnshared.set(dayOf(now), (this.droppedUnshared.get(dayOf(now)) ?? 0) + n);
    return false;
  }

  /**
   * Writes the signals dropped since the last fold into the shared totals, one statement a day
   * rather than one per refusal (a flood is many); what cannot be written waits for the next fold.
   */
  private async shareDropped(shared: PgSharedSignals): Promise<void> {
    const counts = [...this.droppedUnshared];
    this.droppedUnshared.clear();
    for (const [i, [day, n]] of counts.entries()) {
      try {
        await shared.countDropped(day, n);
      } catch (error) {
        for (const [later, m] of counts.slice(i)) this.droppedUnshared.set(later, (this.droppedUnshared.get(later) ?? 0) + m);
        throw error;
      }
    }
  }

  /** Starts forwarding (when Fusion is configured), folding and the hourly pruning; the server process calls it. */
  start(): void {
    this.forwarder?.start();
    if (this.timers.length) return;
    this.prune();
    void this.upkeep();
    // Folding in the background keeps the fold each report makes first down to the last seconds' signals.
    this.timers = [
      setInterval(() => this.prune(), 60 * 60_000),
      setInterval(() => {
        this.fold();
        void this.upkeep();
      }, FOLD_EVERY_MS),
    ];
    for (const timer of this.timers) timer.unref();
  }

  async stop(): Promise<void> {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    await this.forwarder?.stop();
  }

  /**
   * A stopping server's last work: sends what the outbox holds to Fusion for at most `ms`, then
   * stops forwarding and folds into the shared totals what is left. What is not sent by then stays
   * in the outbox for the next start.
   */
  async drain(ms: number): Promise<void> {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    const deadline = Date.now() + ms;
    if (this.forwarder) {
      await this.forwarder.stop();
      while (Date.now() < deadline && this.store.pendingCount() > 0) {
        const wait = await Promise.race([this.forwarder.step(), new Promise<number>((resolve) => setTimeout(() => resolve(-1), Math.max(0, deadline - Date.now())).unref())]);
        // Fusion refuses or does not answer: the rest waits in the outbox.
        if (wait !== 0 && this.store.pendingCount() > 0) break;
      }
    }
    this.fold();
    await this.foldShared();
  }

  /** The analytics of the days `from`..`to`: every replica's when the store is shared, with this replica's newest signals folded in first. */
  async report(from: string, to: string, limit: number): Promise<AnalyticsReport> {
    if (!this.shared) return this.store.report(from, to, limit);
    await this.foldShared();
    return this.shared.report(from, to, limit);
  }

  /** Folds this replica's new signals into the shared totals; one fold at a time per process, never throws. */
  foldShared(): Promise<unknown> {
    const shared = this.shared;
    if (!shared || !this.sharedReady || !this.options.enabled) return Promise.resolve();
    this.sharedFold ??= this.shareDropped(shared)
      .then(() => shared.fold(this.store.secret("outbox-id"), this.store))
      .then(
        () => storeWorked("postgres", "analytics"),
        (error: unknown) => storeFailed("postgres", "analytics", error),
      )
      .finally(() => (this.sharedFold = null));
    return this.sharedFold;
  }

  /** Folds new signals into the analytics totals, then checkpoints the WAL: the background work of a server process. */
  fold(): number {
    try {
      const folded = this.store.fold();
      // Every fold, so that a flood grows the database by at most a couple of seconds past the cap.
      const evicted = this.store.trim(this.options.maxRows ?? DEFAULT_MAX_ROWS, this.now());
      if (evicted > 0 && this.shared) {
        this.shared.countEvicted(dayOf(this.now()), evicted).catch((error: unknown) => console.error("Signals: the shared count of removed signals could not be written:", error));
      }
      this.store.checkpoint();
      void this.foldShared();
      return folded;
    } catch (error) {
      console.error("Signals could not be folded into the analytics:", error);
      return 0;
    }
  }

  /**
   * Moves the analytics periods (this outbox's and the shared ones) up to today, a day a
   * transaction, letting the event loop serve pages between days; reports never move them
   * (decision 040). One run at a time per process; never throws.
   */
  upkeep(): Promise<void> {
    this.upkeeping ??= this.moveUp().finally(() => (this.upkeeping = null));
    return this.upkeeping;
  }

  private async moveUp(): Promise<void> {
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    try {
      while (this.store.rollups.step(dayOf(this.now()))) await turn();
    } catch (error) {
      log.error({ error: error instanceof Error ? error.message : String(error) }, "Signals: the analytics periods could not be moved up to today");
    }
    if (!this.shared || !this.sharedReady || !this.options.enabled) return;
    try {
      while (await this.shared.step(dayOf(this.now())));
    } catch (error) {
      log.error({ error: error instanceof Error ? error.message : String(error) }, "Signals: the shared analytics periods could not be moved up to today");
    }
  }

  prune(): number {
    const now = this.now();
    if (this.sharedReady) this.shared
      ?.prune(dayOf(now - this.options.retentionDays * 86_400_000), now - this.repeatWindowMs)
      .catch((error: unknown) => storeFailed("postgres", "analytics", error));
    try {
      return this.store.prune(now - this.options.retentionDays * 86_400_000, { forwarding: this.forwarder !== null, seenBefore: now - this.repeatWindowMs });
    } catch (error) {
      console.error("Signals could not be pruned:", error);
      return 0;
    }
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

  /** Earlier versions appended signals to a JSON-lines file: imported once, then renamed aside. */
  private importLegacy(file: string): void {
    if (!fs.existsSync(file)) return;
    try {
      const signals: Signal[] = [];
      for (const line of fs.readFileSync(file, "utf8").split("\n")) {
        if (!line.trim()) continue;
        try {
          const raw = JSON.parse(line) as Record<string, unknown>;
          const data = (raw.data ?? {}) as Record<string, unknown>;
          const parsed = SignalSchema.safeParse({ sessionId: null, userId: null, ...raw, data: { ...data, docId: data.docId ?? data.itemNumber } });
          if (parsed.success) signals.push(parsed.data);
        } catch {
          // A torn last line of the old log is no signal.
        }
      }
      this.store.insert(signals, "server");
      fs.renameSync(file, `${file}.imported`);
      console.log(`Signals: imported ${signals.length} signals from ${file}`);
    } catch (error) {
      console.error(`Signals: ${file} could not be imported:`, error);
    }
  }
}
