import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { getConfig } from "~/config.server";

/** Usage signals (details-bom-signin §3), recorded on the server so they exist without JavaScript. */
export const SignalSchema = z.object({
  id: z.string().default(() => randomUUID()),
  type: z.enum(["search", "click", "view", "conversion"]),
  timestamp: z.string().default(() => new Date().toISOString()),
  sessionId: z.string().max(200).optional(),
  userId: z.string().max(200).optional(),
  data: z.record(z.string(), z.unknown()),
});
export type Signal = z.infer<typeof SignalSchema>;
export type SignalInput = z.input<typeof SignalSchema>;

/** The signal log: one JSON object per line, next to the catalogue. */
export function signalsFile(): string {
  return path.join(path.dirname(getConfig().catalogDb), "signals.jsonl");
}

let pending = Promise.resolve();

/**
 * Appends a signal to the local signal log (one JSON object per line). Writes are serialised so
 * lines never interleave; a failure is logged and never breaks the page that caused the signal.
 */
export function recordSignal(input: SignalInput): Promise<void> {
  if (!getConfig().signalsEnabled) return Promise.resolve();
  const parsed = SignalSchema.safeParse(input);
  if (!parsed.success) {
    console.error("Signal dropped: invalid", parsed.error.issues);
    return Promise.resolve();
  }
  const line = `${JSON.stringify(parsed.data)}\n`;
  pending = pending
    .then(() => fs.promises.mkdir(path.dirname(signalsFile()), { recursive: true }))
    .then(() => fs.promises.appendFile(signalsFile(), line))
    .catch((error: unknown) => console.error("Signal could not be written:", error));
  return pending;
}

/**
 * Resolves once every signal recorded so far is written (or has failed to be): pages record
 * signals without waiting, so a reader of the log waits for this first.
 */
export function signalsWritten(): Promise<void> {
  return pending;
}

export function trackClick(action: string, data: Record<string, unknown>): Promise<void> {
  return recordSignal({ type: "click", data: { action, ...data } });
}
