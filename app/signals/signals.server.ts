import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

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

/**
 * The signal log: one JSON object per line, appended in order. Writes are serialised so lines
 * never interleave; a failure is logged and never breaks the page that caused the signal.
 */
export class SignalLog {
  private pending = Promise.resolve();

  constructor(private readonly settings: { file: string; enabled: boolean }) {}

  get file(): string {
    return this.settings.file;
  }

  record(input: SignalInput): Promise<void> {
    if (!this.settings.enabled) return Promise.resolve();
    const parsed = SignalSchema.safeParse(input);
    if (!parsed.success) {
      console.error("Signal dropped: invalid", parsed.error.issues);
      return Promise.resolve();
    }
    const line = `${JSON.stringify(parsed.data)}\n`;
    const { file } = this.settings;
    this.pending = this.pending
      .then(() => fs.promises.mkdir(path.dirname(file), { recursive: true }))
      .then(() => fs.promises.appendFile(file, line))
      .catch((error: unknown) => console.error("Signal could not be written:", error));
    return this.pending;
  }

  /** An action on a page (an export, a link to another page) as a click signal. */
  click(action: string, data: Record<string, unknown>): Promise<void> {
    return this.record({ type: "click", data: { action, ...data } });
  }

  /**
   * Resolves once every signal recorded so far is written (or has failed to be): pages record
   * signals without waiting, so a reader of the log waits for this first.
   */
  written(): Promise<void> {
    return this.pending;
  }
}
