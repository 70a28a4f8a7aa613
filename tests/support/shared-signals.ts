import type { AnalyticsReport } from "~/signals/rollup.server";
import { NoSharedSignals, type Outbox, type RepeatCheck, type SharedSignals } from "~/signals/shared.server";

/**
 * A SharedSignals that keeps what it is told and answers the repeat checks `repeats` says (all
 * repeats, none, or undefined: the replica checks alone), for the recorder's and the upkeep's tests.
 */
export class RecordingSharedSignals implements SharedSignals {
  readonly calls: { name: keyof SharedSignals; args: unknown[] }[] = [];
  private readonly alone = new NoSharedSignals();

  constructor(private readonly answer: (checks: readonly RepeatCheck[]) => boolean[] | undefined = () => undefined) {}

  private called(name: keyof SharedSignals, ...args: unknown[]): void {
    this.calls.push({ name, args });
  }

  /** The arguments of each call of `name`, in order. */
  argsOf(name: keyof SharedSignals): unknown[][] {
    return this.calls.filter((call) => call.name === name).map((call) => call.args);
  }

  prepare(names: readonly string[]): Promise<void> {
    this.called("prepare", names);
    return Promise.resolve();
  }

  secret(name: string, outbox: Outbox): string {
    this.called("secret", name);
    return this.alone.secret(name, outbox);
  }

  repeats(checks: readonly RepeatCheck[], windowMs: number, now: number): Promise<boolean[] | undefined> {
    this.called("repeats", checks.map(({ identity, key }) => ({ identity, key })), windowMs, now);
    return Promise.resolve(this.answer(checks));
  }

  dropped(day: string, n: number): void {
    this.called("dropped", day, n);
  }

  evicted(day: string, n: number): void {
    this.called("evicted", day, n);
  }

  fold(): Promise<void> {
    this.called("fold");
    return Promise.resolve();
  }

  moveUp(today: () => string): Promise<void> {
    this.called("moveUp", today());
    return Promise.resolve();
  }

  prune(day: string, seenBefore: number): Promise<void> {
    this.called("prune", day, seenBefore);
    return Promise.resolve();
  }

  report(from: string, to: string, limit: number, outbox: Outbox): Promise<AnalyticsReport> {
    this.called("report", from, to, limit);
    return this.alone.report(from, to, limit, outbox);
  }
}
