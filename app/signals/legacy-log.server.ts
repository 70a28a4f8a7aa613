import fs from "node:fs";
import { SignalSchema, type Signal } from "./model.server";
import type { SqliteSignalStore } from "./store.server";

/** Earlier versions appended signals to a JSON-lines file: imported once into the outbox, then renamed aside. */
export function importLegacyLog(store: SqliteSignalStore, file: string): void {
  if (!fs.existsSync(file)) return;
  try {
    const signals: Signal[] = [];
    for (const line of fs.readFileSync(file, "utf8").split("\n")) {
      if (!line.trim()) continue;
      try {
        const raw = JSON.parse(line) as Record<string, unknown>;
        const data = (raw.data ?? {}) as Record<string, unknown>;
        const parsed = SignalSchema.safeParse({ sessionId: null, userId: null, ...raw, data: { ...data, docId: data.docId ?? data.itemNumber } });
        if (parsed.success) signals.push(parsed.data);
      } catch {
        // A torn last line of the old log is no signal.
      }
    }
    store.insert(signals, "server");
    fs.renameSync(file, `${file}.imported`);
    console.log(`Signals: imported ${signals.length} signals from ${file}`);
  } catch (error) {
    console.error(`Signals: ${file} could not be imported:`, error);
  }
}
