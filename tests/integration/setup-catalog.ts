import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Points the app at a fresh sample catalogue in a temporary folder. Call before importing any
 * module that reads the configuration.
 */
export function useTemporaryCatalog(items = 600): { dir: string; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crib-it-"));
  const file = path.join(dir, "catalog.db");
  process.env.CATALOG_DB = file;
  process.env.SAMPLE_ITEMS = String(items);
  return { dir, file };
}
