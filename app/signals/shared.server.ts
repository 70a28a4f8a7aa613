import type { AnalyticsReport } from "./rollup.server";

/** A signal the repeat check asks about. */
export interface RepeatCheck {
  identity: string;
  /** What makes it the repeat of an earlier one (repeatKey in recorder.server.ts). */
  key: string;
}

/** The rows of a replica's outbox the shared totals fold in: `seq` order, read from its SQLite file. */
export interface OutboxReader {
  rowsAfter(seq: number, limit: number): { seq: number; at: number; source: string; body: string }[];
  lastSeq(): number;
}

/** What the shared part reads of this replica's outbox (SqliteSignalStore): its rows, its own keys, its own totals. */
export interface Outbox extends OutboxReader {
  secret(name: string): string;
  report(from: string, to: string, limit: number): AnalyticsReport;
}

/**
 * What the replicas of the portal share of the usage signals, behind one port as the sessions'
 * store is (docs/decisions/046): the key of the signals cookie, the repeat check, and the totals
 * `/analytics` reads. PostgreSQL when DATABASE_URL is set (PgSharedSignals, shared-pg.server.ts);
 * on one machine nothing (NoSharedSignals), and the outbox's own keys and totals serve. The calls
 * the recorder and the upkeep make never throw into a page or the background work: a store that
 * fails is logged (store-health) and the replica goes on alone.
 */
export interface SharedSignals {
  /** Loads the keys `names` before the first request; the shared checks and folds start once it has run. */
  prepare(names: readonly string[]): Promise<void>;
  /** The key `name` every replica uses (loaded by `prepare`); on one machine, the outbox's own. */
  secret(name: string, outbox: Outbox): string;
  /**
   * For each check in order, whether any replica saw it within `windowMs` (it is marked seen now
   * when not); undefined while this replica checks alone (nothing shared, or the store failing).
   */
  repeats(checks: readonly RepeatCheck[], windowMs: number, now: number): Promise<boolean[] | undefined>;
  /** Signals the per-minute cap dropped on `day`: counted in the shared totals with the next fold. */
  dropped(day: string, n: number): void;
  /** Signals removed on `day` to keep the outbox within SIGNALS_MAX_ROWS. */
  evicted(day: string, n: number): void;
  /** Folds the outbox's new signals into the shared totals; one fold at a time per process. */
  fold(outbox: Outbox): Promise<void>;
  /** Moves the shared analytics periods up to `today()`, a day a transaction (decision 040). */
  moveUp(today: () => string): Promise<void>;
  /** Removes the shared totals before `day` and the repeat memory from before `seenBefore`. */
  prune(day: string, seenBefore: number): Promise<void>;
  /** The analytics of the days `from`..`to`: every replica's, or on one machine the outbox's own. */
  report(from: string, to: string, limit: number, outbox: Outbox): Promise<AnalyticsReport>;
}

/** One machine, nothing shared: the outbox's own keys and totals, and nothing else to do. */
export class NoSharedSignals implements SharedSignals {
  prepare(): Promise<void> {
    return Promise.resolve();
  }

  secret(name: string, outbox: Outbox): string {
    return outbox.secret(name);
  }

  repeats(): Promise<undefined> {
    return Promise.resolve(undefined);
  }

  dropped(): void {}

  evicted(): void {}

  fold(): Promise<void> {
    return Promise.resolve();
  }

  moveUp(): Promise<void> {
    return Promise.resolve();
  }

  prune(): Promise<void> {
    return Promise.resolve();
  }

  // Async so that a failing read of the outbox is a rejected report, as PostgreSQL's is.
  async report(from: string, to: string, limit: number, outbox: Outbox): Promise<AnalyticsReport> {
    return outbox.report(from, to, limit);
  }
}
