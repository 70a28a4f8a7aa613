import fs from "node:fs";
import type { Signal } from "~/signals/signals.server";

/**
 * The signals recorded so far, once every pending write has landed. The app module is imported
 * here, when called, so that a test file sets its environment before the app reads it.
 */
export async function readSignals(): Promise<Signal[]> {
  const { signalsFile, signalsWritten } = await import("~/signals/signals.server");
  await signalsWritten();
  try {
    const text = await fs.promises.readFile(signalsFile(), "utf8");
    return text
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Signal);
  } catch {
    return [];
  }
}
