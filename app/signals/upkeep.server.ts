import { log } from "~/lib/log.server";
import type { SignalForwarder } from "./forwarder.server";
import type { SharedSignals } from "./shared.server";
import { dayOf, type SqliteSignalStore } from "./store.server";

/** SIGNALS_MAX_ROWS's default: about 1 GB of signals, 90 days of a busy plant's use. */
export const DEFAULT_MAX_ROWS = 2_000_000;

/** How often a server process folds new signals into the analytics totals. */
const FOLD_EVERY_MS = 2000;

export interface UpkeepOptions {
  enabled: boolean;
  retentionDays: number;
  /** The repeat check's window: the memory of what was seen is kept this long. */
  repeatWindowMs: number;
  /** The most signals the database keeps: past it the oldest go first, counted (SIGNALS_MAX_ROWS). */
  maxRows: number;
  now: () => number;
}

/**
 * The background work of the signals in a server process: forwarding to Fusion, folding new
 * signals into the analytics totals (this outbox's and the shared ones) every couple of seconds,
 * moving the analytics periods up to today, pruning hourly, and the graceful stop's drain.
 */
export class SignalUpkeep {
  private timers: NodeJS.Timeout[] = [];
  /** The upkeep of the analytics periods under way (at most one per process). */
  private upkeeping: Promise<void> | null = null;

  constructor(
    private readonly store: SqliteSignalStore,
    private readonly shared: SharedSignals,
    private readonly forwarder: SignalForwarder | null,
    private readonly options: UpkeepOptions,
  ) {}

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

  /** Folds this replica's new signals into the shared totals; one fold at a time per process, never throws. */
  foldShared(): Promise<unknown> {
    if (!this.options.enabled) return Promise.resolve();
    return this.shared.fold(this.store);
  }

  /** Folds new signals into the analytics totals, then checkpoints the WAL: the background work of a server process. */
  fold(): number {
    try {
      const folded = this.store.fold();
      // Every fold, so that a flood grows the database by at most a couple of seconds past the cap.
      const evicted = this.store.trim(this.options.maxRows, this.options.now());
      if (evicted > 0) this.shared.evicted(dayOf(this.options.now()), evicted);
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
    const today = () => dayOf(this.options.now());
    try {
      while (this.store.rollups.step(today())) await turn();
    } catch (error) {
      log.error({ error: error instanceof Error ? error.message : String(error) }, "Signals: the analytics periods could not be moved up to today");
    }
    if (this.options.enabled) await this.shared.moveUp(today);
  }

  /** Removes what is past the retention (and the repeat memory past its window), here and in the shared store. */
  prune(): number {
    const now = this.options.now();
    void this.shared.prune(dayOf(now - this.options.retentionDays * 86_400_000), now - this.options.repeatWindowMs);
    try {
      return this.store.prune(now - this.options.retentionDays * 86_400_000, { forwarding: this.forwarder !== null, seenBefore: now - this.options.repeatWindowMs });
    } catch (error) {
      console.error("Signals could not be pruned:", error);
      return 0;
    }
  }
}
