import type { Signal } from "~/signals/model.server";

/** A stored signal, its data read as plain fields (tests look at a few of them). */
export type StoredSignal = Omit<Signal, "data"> & { data: Record<string, unknown> };

/** The signals recorded so far by the installed services, once every recording under way has landed. */
export async function readSignals(): Promise<StoredSignal[]> {
  const { services } = await import("~/registry.server");
  const { signals } = services();
  await signals.settled();
  return signals.store.all().map((row) => row.signal as StoredSignal);
}
