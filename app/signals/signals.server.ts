import { createHmac } from "node:crypto";
import { SignalForwarder, type ForwarderOptions } from "./forwarder.server";
import { importLegacyLog } from "./legacy-log.server";
import type { ClientSignal, SignalInput } from "./model.server";
import { SignalRecorder, type Outcome, type SignalContext } from "./recorder.server";
import { NoSharedSignals, type SharedSignals } from "./shared.server";
import { SqliteSignalStore, type AnalyticsReport } from "./store.server";
import { DEFAULT_MAX_ROWS, SignalUpkeep } from "./upkeep.server";

export type { Signal, SignalInput } from "./model.server";
export type { Outcome, SignalContext } from "./recorder.server";

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
  /** What replicas share (DATABASE_URL: PgSharedSignals): the repeat check, the analytics totals, the cookie's key. Nothing by default. */
  shared?: SharedSignals | null;
  /** The secret every derived key comes from (SESSION_SECRET): the same on every replica. */
  keySecret?: string;
  now?: () => number;
}

/**
 * The portal's usage signals, put together (docs/decisions/046): the outbox (SQLite), the
 * recorder that writes into it (recorder.server.ts), the forwarding to Fusion and the background
 * upkeep of the totals `/analytics` reads (upkeep.server.ts), and what replicas share
 * (shared.server.ts: PostgreSQL, or nothing on one machine). The keys and the report are its own;
 * the rest it hands to its parts.
 */
export class Signals {
  readonly store: SqliteSignalStore;
  readonly forwarder: SignalForwarder | null;
  private readonly shared: SharedSignals;
  private readonly recorder: SignalRecorder;
  private readonly keeper: SignalUpkeep;
  private readonly secrets = new Map<string, string>();

  constructor(readonly options: SignalsOptions) {
    const now = options.now ?? Date.now;
    const repeatWindowMs = options.repeatWindowMs ?? 30 * 60_000;
    this.store = new SqliteSignalStore(options.file);
    this.shared = options.shared ?? new NoSharedSignals();
    this.forwarder = options.forwarding ? new SignalForwarder(this.store, { ...options.forwarding, now }) : null;
    this.recorder = new SignalRecorder(this.store, this.shared, this.forwarder, { enabled: options.enabled, perMinute: options.perMinute ?? 120, repeatWindowMs, now });
    this.keeper = new SignalUpkeep(this.store, this.shared, this.forwarder, {
      enabled: options.enabled,
      retentionDays: options.retentionDays,
      repeatWindowMs,
      maxRows: options.maxRows ?? DEFAULT_MAX_ROWS,
      now,
    });
    if (options.legacyLog) importLegacyLog(this.store, options.legacyLog);
  }

  get enabled(): boolean {
    return this.options.enabled;
  }

  /** Loads what must be at hand before the first request: the shared cookie key when no SESSION_SECRET gives one. */
  async prepare(): Promise<void> {
    await this.shared.prepare(this.options.keySecret ? [] : ["session-cookie"]);
  }

  /**
   * A secret key of the signals (the cookie's signature): derived from SESSION_SECRET when it is
   * set, else the shared store's, else this outbox's own, made on first use.
   */
  secret(name: string): string {
    let value = this.secrets.get(name);
    if (value) return value;
    value = this.options.keySecret ? createHmac("sha256", this.options.keySecret).update(`signals:${name}`).digest("base64url") : this.shared.secret(name, this.store);
    this.secrets.set(name, value);
    return value;
  }

  /** The analytics of the days `from`..`to`: every replica's when the store is shared, with this replica's newest signals folded in first. */
  async report(from: string, to: string, limit: number): Promise<AnalyticsReport> {
    await this.keeper.foldShared();
    return this.shared.report(from, to, limit, this.store);
  }

  /** {@link SignalRecorder.record} */
  record(input: SignalInput, context: SignalContext, sharedRepeat?: boolean): Outcome {
    return this.recorder.record(input, context, sharedRepeat);
  }

  /** {@link SignalRecorder.recordSoon} */
  recordSoon(input: SignalInput, context: SignalContext): Promise<Outcome> {
    return this.recorder.recordSoon(input, context);
  }

  /** {@link SignalRecorder.acceptFromClient} */
  acceptFromClient(signals: readonly ClientSignal[], context: SignalContext): number | null {
    return this.recorder.acceptFromClient(signals, context);
  }

  /** {@link SignalRecorder.track} */
  track(work: Promise<unknown>): void {
    this.recorder.track(work);
  }

  /** {@link SignalRecorder.settled} */
  settled(): Promise<unknown> {
    return this.recorder.settled();
  }

  /** {@link SignalUpkeep.start} */
  start(): void {
    this.keeper.start();
  }

  stop(): Promise<void> {
    return this.keeper.stop();
  }

  /** {@link SignalUpkeep.drain} */
  drain(ms: number): Promise<void> {
    return this.keeper.drain(ms);
  }

  /** {@link SignalUpkeep.foldShared} */
  foldShared(): Promise<unknown> {
    return this.keeper.foldShared();
  }

  /** {@link SignalUpkeep.fold} */
  fold(): number {
    return this.keeper.fold();
  }

  /** {@link SignalUpkeep.upkeep} */
  upkeep(): Promise<void> {
    return this.keeper.upkeep();
  }

  prune(): number {
    return this.keeper.prune();
  }
}
