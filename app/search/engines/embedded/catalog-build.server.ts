import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { BomDoc, Doc } from "../../engine";
import { readMeta, SCHEMA_VERSION } from "./catalog-db.server";
import { CatalogWriter } from "./catalog-writer.server";
import { DEFAULT_SAMPLE_SEED, generateBoms, generateItems } from "./sample-data";

/*
 * A catalogue file is only ever replaced whole: it is built under a temporary name in the same
 * folder (so the rename cannot cross file systems) and renamed over the target, which POSIX makes
 * atomic. Readers see the old file or the new one, never a half-written one, and processes that
 * have the old file open keep reading it until they reopen.
 */

const TEMP_MARK = ".tmp-";

/** A fresh temporary path next to `target`, named after this process so leftovers can be traced. */
export function tempPathFor(target: string): string {
  return `${target}${TEMP_MARK}${process.pid}-${randomBytes(4).toString("hex")}`;
}

/** Flushes the finished temporary file to disk and renames it over `target`. */
export function commitTempFile(tempPath: string, target: string): void {
  // The writer runs with synchronous=OFF; without this a crash right after the rename could leave
  // a renamed but incomplete catalogue.
  const fd = fs.openSync(tempPath, "r+");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tempPath, target);
}

/** SQLite's files beside a database: a killed writer leaves its journal (or WAL) behind. */
const SIDE_FILES = ["-journal", "-wal", "-shm"];

/** Removes `file` and the journal files SQLite may have left beside it. */
export function removeIfExists(file: string): void {
  for (const suffix of ["", ...SIDE_FILES]) fs.rmSync(`${file}${suffix}`, { force: true });
}

/**
 * A temporary file nobody has written to for this long belongs to a build or import that died
 * (SIGKILL and power cuts skip every cleanup handler). Live writers touch their file every few
 * seconds: SQLite spills its page cache as rows arrive. Age is the test rather than "is its pid
 * alive", because an import may run in another container, where its pid means nothing here.
 */
const STALE_AFTER_MS = 10 * 60 * 1000;

/** Deletes temporary files that dead builds or imports left next to `target`. */
export function removeStaleTempFiles(target: string): void {
  const dir = path.dirname(target);
  const prefix = path.basename(target) + TEMP_MARK;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !/^\d+-[0-9a-f]+(-journal|-wal|-shm)?$/.test(name.slice(prefix.length))) continue;
    const file = path.join(dir, name);
    try {
      if (Date.now() - fs.statSync(file).mtimeMs > STALE_AFTER_MS) removeIfExists(file);
    } catch {
      // Another process removed or renamed it meanwhile: nothing left to clean.
    }
  }
}

export interface BuildProgress {
  items: number;
  boms: number;
  /** Items to generate. */
  totalItems: number;
}

export interface BuildSampleOptions {
  items: number;
  seed?: number;
  /** Called every 10,000 records. */
  onProgress?: (progress: BuildProgress) => void;
}

export interface BuildReport {
  items: number;
  boms: number;
  seconds: number;
}

const PROGRESS_EVERY = 10_000;

/**
 * Writes a catalogue at `target` whole: `fill` adds the records to a writer on a temporary file
 * and returns how the catalogue was made; then the file is finished and swapped in. On failure the
 * temporary file goes and `target` stays as it was.
 */
function writeCatalogFile(target: string, fill: (writer: CatalogWriter) => Record<string, string | number>): BuildReport {
  const started = performance.now();
  const tempPath = tempPathFor(target);
  let writer: CatalogWriter | undefined;
  let finished = false;
  try {
    writer = new CatalogWriter(tempPath);
    const meta = fill(writer);
    const counts = writer.counts;
    writer.finish(meta);
    finished = true;
    commitTempFile(tempPath, target);
    return { ...counts, seconds: (performance.now() - started) / 1000 };
  } catch (error) {
    if (writer && !finished) {
      try {
        writer.abort();
      } catch {
        // The original error says more than a failed rollback of a file we delete anyway.
      }
    }
    removeIfExists(tempPath);
    throw error;
  }
}

/** Builds a sample catalogue of `items` generated items (plus their BOMs) and puts it at `target`. */
export function buildSampleCatalog(target: string, options: BuildSampleOptions): BuildReport {
  const seed = options.seed ?? DEFAULT_SAMPLE_SEED;
  return writeCatalogFile(target, (w) => {
    const report = () => options.onProgress?.({ ...w.counts, totalItems: options.items });
    for (const doc of generateItems(options.items, seed)) {
      w.addItem(doc);
      if (w.counts.items % PROGRESS_EVERY === 0) report();
    }
    for (const bom of generateBoms(options.items, seed)) {
      w.addBom(bom);
      if (w.counts.boms % PROGRESS_EVERY === 0) report();
    }
    return { source: "sample", sample_items: options.items, sample_seed: seed };
  });
}

/** The schema version of a catalogue file; null when it is not a readable catalogue. */
export function schemaVersionOf(file: string): number | null {
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return Number(readMeta(db).schema_version) || null;
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

/** Stored item row → the document it was written from (stored values write back unchanged). */
function storedDoc(row: Record<string, unknown>): Doc {
  const doc: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (key === "rowid" || key === "extra_json" || value === null) continue;
    doc[key] = value;
  }
  if (typeof row.extra_json === "string") {
    for (const [key, value] of Object.entries(JSON.parse(row.extra_json) as Record<string, unknown>)) if (!(key in doc)) doc[key] = value;
  }
  return doc as Doc;
}

/**
 * Rebuilds a catalogue of an older schema from its own rows (items, BOM records and how it was
 * made), into the current schema, and swaps it in. The old file is the source, so an imported
 * catalogue survives without its import files. On failure the old file stays as it was.
 */
function upgradeCatalog(target: string): BuildReport {
  const source = new Database(target, { readonly: true, fileMustExist: true });
  try {
    return writeCatalogFile(target, (w) => {
      const meta = readMeta(source);
      for (const row of source.prepare("SELECT * FROM items ORDER BY rowid").iterate() as Iterable<Record<string, unknown>>) w.addItem(storedDoc(row));
      for (const row of source.prepare("SELECT * FROM bom ORDER BY rowid").iterate() as Iterable<Record<string, unknown>>) {
        const { rowid: _rowid, ...record } = row;
        w.addBom(record as unknown as BomDoc);
      }
      // Closed before the new file is renamed over it: the old file's connection must not touch
      // journal files that would then carry the new file's name.
      source.close();
      const kept = Object.fromEntries(Object.entries(meta).filter(([key]) => !["schema_version", "item_count", "bom_count", "built_at"].includes(key)));
      return { ...kept, upgraded_from: meta.schema_version ?? "unknown", ...(meta.built_at ? { first_built_at: meta.built_at } : {}) };
    });
  } finally {
    if (source.open) source.close();
  }
}

/**
 * Makes sure a catalogue of the current schema exists at `target`: when the file is missing,
 * builds a sample catalogue of `sampleItems` items there (returns true); when it has an older
 * schema, rebuilds it in the current one. Safe when several processes start at once: each builds
 * its own temporary file and the last rename wins with a complete file. A failed upgrade keeps the
 * old file and is logged: the engine then reports the catalogue as unavailable, the server runs.
 */
export function ensureCatalog(target: string, sampleItems: number): boolean {
  removeStaleTempFiles(target);
  if (fs.existsSync(target)) {
    const version = schemaVersionOf(target);
    if (version !== null && version < SCHEMA_VERSION) {
      try {
        const report = upgradeCatalog(target);
        console.log(`Rebuilt the catalogue ${path.basename(target)} (schema ${version} → ${SCHEMA_VERSION}, ${report.items} items) in ${report.seconds.toFixed(1)} s`);
      } catch (error) {
        console.error(`The catalogue ${path.basename(target)} has schema ${version} and could not be rebuilt: ${error instanceof Error ? error.message : error}`);
      }
    }
    return false;
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  buildSampleCatalog(target, { items: sampleItems });
  return true;
}
