import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseConfig } from "~/config.server";
import { createServices, installServices } from "~/registry.server";

/**
 * Installs the app's services for a fresh sample catalogue in a temporary folder, with any other
 * settings given as environment variables would give them (`{ EXPORT_LIMIT: "1000" }`). The
 * loaders the test calls then use these services; nothing reads `process.env`.
 */
export function useTemporaryCatalog(items = 600, env: Record<string, string> = {}): { dir: string; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crib-it-"));
  const file = path.join(dir, "catalog.db");
  installServices(createServices(parseConfig({ CATALOG_DB: file, SAMPLE_ITEMS: String(items), ...env })));
  return { dir, file };
}
