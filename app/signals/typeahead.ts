import { pageQueue } from "./page-queue";
import { eventId, type QueuedSignal, type SignalQueue } from "./queue";

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
 * one to the server), through the page's queue; nothing with signals off.
 */
export function recordTypeaheadPick(pick: TypeaheadPick, enabled: boolean, queue?: SignalQueue): void {
  if (enabled) (queue ?? pageQueue(enabled)).push(typeaheadSignal(pick));
}

let enabledOnce: Promise<boolean> | undefined;

/** Whether the server records signals (SIGNALS_ENABLED): asked once per page load, on the first pick. */
function signalsEnabled(): Promise<boolean> {
  enabledOnce ??= fetch("/api/config", { headers: { Accept: "application/json" } })
    .then((response) => (response.ok ? response.json() : null))
    .then((body: { data?: { signalsEnabled?: unknown } } | null) => body?.data?.signalsEnabled === true)
    .catch(() => false);
  return enabledOnce;
}

/** Records the pick when the server records signals; the box's code calls this on a pick. */
export async function recordPickWhenEnabled(pick: TypeaheadPick): Promise<void> {
  recordTypeaheadPick(pick, await signalsEnabled());
}
