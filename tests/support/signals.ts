import fs from "node:fs";
import type { Signal } from "~/signals/signals.server";

/** The signals recorded so far by the installed services, once every pending write has landed. */
export async function readSignals(): Promise<Signal[]> {
  const { services } = await import("~/registry.server");
  const log = services().signals;
  await log.written();
  try {
    const text = await fs.promises.readFile(log.file, "utf8");
    return text
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Signal);
  } catch {
    return [];
  }
}
