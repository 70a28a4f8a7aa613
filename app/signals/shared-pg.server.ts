import type pg from "pg";
import { log } from "~/lib/log.server";
import { storeFailed, storeWorked } from "~/lib/store-health.server";
import { PgSignalTables } from "./shared-pg-tables.server";
import type { AnalyticsReport } from "./rollup.server";
import type { Outbox, RepeatCheck, SharedSignals } from "./shared.server";

/**
 * What replicas share of the usage signals, in PostgreSQL (DATABASE_URL): the SharedSignals port
 * over the tables of shared-pg-tables.server.ts. Nothing shared is touched before `prepare` (the
 * server prepares the services in the background, whenever PostgreSQL answers); a failing store is
 * logged when it starts failing and when it works again (store-health), and the replica goes on
 * alone meanwhile: its own repeat check, its dropped signals kept for a later fold.
 */
export class PgSharedSignals implements SharedSignals {
  private readonly tables: PgSignalTables;
  private readonly keys = new Map<string, string>();
  /** The shared store's tables exist and its keys are loaded. */
  private ready = false;
  /** The fold under way (at most one per process). */
  private folding: Promise<void> | null = null;
  /** Signals dropped by the per-minute cap and not yet in the shared totals, by day. */
  private readonly droppedUnshared = new Map<string, number>();

  constructor(pool: pg.Pool) {
    this.tables = new PgSignalTables(pool);
  }

  async prepare(names: readonly string[]): Promise<void> {
    for (const name of names) this.keys.set(name, await this.tables.secret(name));
    this.ready = true;
  }

  secret(name: string): string {
    const value = this.keys.get(name);
    // A key of this replica's own would differ from the others': the shared one must be loaded first.
    if (value === undefined) throw new Error(`The shared key "${name}" was not loaded: call prepare() first`);
    return value;
  }

  async repeats(checks: readonly RepeatCheck[], windowMs: number, now: number): Promise<boolean[] | undefined> {
    if (!this.ready) return undefined;
    try {
      const repeats = await this.tables.repeats(checks, windowMs, now);
      storeWorked("postgres", "signals");
      return repeats;
    } catch (error) {
      // Logged when the store starts failing and when it works again, not per batch (store-health).
      storeFailed("postgres", "signals", error);
      return undefined;
    }
  }

  dropped(day: string, n: number): void {
    // The shared totals have no outbox row of it to fold: added up here, written with the next fold.
    this.droppedUnshared.set(day, (this.droppedUnshared.get(day) ?? 0) + n);
  }

  evicted(day: string, n: number): void {
    this.tables.countEvicted(day, n).catch((error: unknown) => console.error("Signals: the shared count of removed signals could not be written:", error));
  }

  /** Writes `n` signals the cap dropped on `day` into the shared totals: the fold's statement, one a day. */
  countDropped(day: string, n: number): Promise<void> {
    return this.tables.countDropped(day, n);
  }

  fold(outbox: Outbox): Promise<void> {
    if (!this.ready) return Promise.resolve();
    this.folding ??= this.shareDropped()
      .then(() => this.tables.fold(outbox.secret("outbox-id"), outbox))
      .then(
        () => storeWorked("postgres", "analytics"),
        (error: unknown) => storeFailed("postgres", "analytics", error),
      )
      .finally(() => (this.folding = null));
    return this.folding;
  }

  /**
   * Writes the signals dropped since the last fold into the shared totals, one statement a day
   * rather than one per refusal (a flood is many); what cannot be written waits for the next fold.
   */
  private async shareDropped(): Promise<void> {
    const counts = [...this.droppedUnshared];
    this.droppedUnshared.clear();
    for (const [i, [day, n]] of counts.entries()) {
      try {
        await this.countDropped(day, n);
      } catch (error) {
        for (const [later, m] of counts.slice(i)) this.dropped(later, m);
        throw error;
      }
    }
  }

  async moveUp(today: () => string): Promise<void> {
    if (!this.ready) return;
    try {
      while (await this.tables.step(today()));
    } catch (error) {
      log.error({ error: error instanceof Error ? error.message : String(error) }, "Signals: the shared analytics periods could not be moved up to today");
    }
  }

  prune(day: string, seenBefore: number): Promise<void> {
    if (!this.ready) return Promise.resolve();
    return this.tables.prune(day, seenBefore).catch((error: unknown) => storeFailed("postgres", "analytics", error));
  }

  report(from: string, to: string, limit: number): Promise<AnalyticsReport> {
    return this.tables.report(from, to, limit);
  }
}
