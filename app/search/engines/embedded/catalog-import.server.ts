import fs from "node:fs";
import path from "node:path";
import type { z } from "zod";
import type { BomDoc } from "../../engine";
import { commitTempFile, removeIfExists, removeStaleTempFiles, tempPathFor } from "./catalog-build.server";
import { KeyRegister } from "./catalog-import-keys.server";
import { formatOf, records, type Columns } from "./catalog-import-readers.server";
import { BomRowSchema, ItemRowSchema, quote } from "./catalog-import-rows";
import { CatalogWriter } from "./catalog-writer.server";
import { ITEM_NUMBER_FIELD } from "../../catalog-fields";
import { BOM_COLUMNS, ITEM_COLUMNS } from "./schema";

/*
 * Imports a catalogue from files (format: docs/catalog-format.md). Files are streamed, rows are
 * validated one by one and written into a new catalogue under a temporary name; only a complete
 * import with no problem at all replaces the previous catalogue. Any problem, exception or abort
 * leaves the previous file as it was and deletes the temporary one.
 */

/** Problems listed before the import stops reading: a wrong delimiter would otherwise list every row. */
export const MAX_PROBLEMS = 50;

export interface ImportProblem {
  /** File name (without folder). */
  file: string;
  /** 1-based physical line where the record starts; 0 for the file as a whole. */
  line: number;
  field?: string;
  message: string;
}

export class CatalogImportError extends Error {
  constructor(
    readonly problems: ImportProblem[],
    /** More problems exist than are listed. */
    readonly truncated = false,
  ) {
    super(
      problems.length === 1
        ? `Import failed: ${formatProblem(problems[0]!)}`
        : `Import failed with ${truncated ? "at least " : ""}${problems.length} problems`,
    );
    this.name = "CatalogImportError";
  }
}

export function formatProblem(problem: ImportProblem): string {
  const where = [problem.file, problem.line > 0 ? `line ${problem.line}` : ""].filter(Boolean).join(" ");
  return `${where}${problem.field ? `, field ${problem.field}` : ""}: ${problem.message}`;
}

export interface ImportProgress {
  phase: "items" | "bom" | "indexing";
  /** Rows read so far, both files. */
  rows: number;
  rowsPerSecond: number;
  bytesRead: number;
  totalBytes: number;
  /** Estimated from the bytes still to read; null until there is a rate to go by. */
  etaSeconds: number | null;
}

export interface ImportOptions {
  itemsPath: string;
  bomPath?: string;
  /** The catalogue file to replace (or create). */
  target: string;
  onProgress?: (progress: ImportProgress) => void;
  /** Least time between two progress calls; the default is one second. */
  progressIntervalMs?: number;
  /** Aborting stops the import and keeps the previous catalogue. */
  signal?: AbortSignal;
}

export interface ImportReport {
  items: number;
  boms: number;
  seconds: number;
  rowsPerSecond: number;
  /** Bytes of the input files. */
  fileBytes: number;
  /** BOM records whose item number names no imported item (allowed: Where Used still answers). */
  bomItemsNotInCatalogue: number;
}

class Problems {
  readonly list: ImportProblem[] = [];
  /** A problem beyond the listed ones was found; reading stops there. */
  truncated = false;
  add(problem: ImportProblem): void {
    if (this.list.length < MAX_PROBLEMS) this.list.push(problem);
    else this.truncated = true;
  }
  get any(): boolean {
    return this.list.length > 0;
  }
}

function issueProblems(file: string, line: number, error: z.ZodError): ImportProblem[] {
  return error.issues.map((issue) => {
    const keys = issue.code === "unrecognized_keys" ? issue.keys.join(", ") : undefined;
    const field = keys ?? (issue.path.length > 0 ? String(issue.path[0]) : undefined);
    return { file, line, ...(field ? { field } : {}), message: issue.message };
  });
}

/** What the item and BOM passes share. */
interface ImportRun {
  writer: CatalogWriter;
  keys: KeyRegister;
  problems: Problems;
  signal: AbortSignal | undefined;
  onBytes: (bytes: number) => void;
  /** Counts a row read and reports progress. */
  onRow: (phase: "items" | "bom") => void;
}

const ITEM_FILE_COLUMNS: Columns = { known: ["id", ...ITEM_COLUMNS.map((c) => c.name)], required: [ITEM_NUMBER_FIELD], extraColumns: true };
const BOM_FILE_COLUMNS: Columns = { known: BOM_COLUMNS, required: ["item_number"], extraColumns: false };

async function importItems(itemsPath: string, run: ImportRun): Promise<void> {
  const { writer, keys, problems } = run;
  const file = path.basename(itemsPath);
  for await (const record of records(itemsPath, ITEM_FILE_COLUMNS, run.onBytes)) {
    run.signal?.throwIfAborted();
    run.onRow("items");
    if ("problem" in record) {
      problems.add({ file, line: record.line, message: record.problem });
      continue;
    }
    const parsed = ItemRowSchema.safeParse(record.values);
    if (!parsed.success) {
      for (const problem of issueProblems(file, record.line, parsed.error)) problems.add(problem);
    } else {
      const doc = parsed.data;
      const itemNumber = String(doc[ITEM_NUMBER_FIELD]);
      const firstNumber = keys.claim("item_number", itemNumber, record.line);
      if (firstNumber !== null) {
        problems.add({
          file,
          line: record.line,
          field: ITEM_NUMBER_FIELD,
          message: `duplicate item number ${quote(itemNumber)} (first on line ${firstNumber})`,
        });
      }
      const firstId = keys.claim("item_id", doc.id, record.line);
      if (firstId !== null) {
        problems.add({ file, line: record.line, field: "id", message: `duplicate id ${quote(doc.id)} (first on line ${firstId})` });
      }
      // After the first problem rows are only checked: the new file will be thrown away anyway.
      if (!problems.any) writer.addItem(doc);
    }
    if (problems.truncated) return;
  }
  if (!problems.any && writer.counts.items === 0) {
    problems.add({ file, line: 0, message: "no items: importing it would leave an empty catalogue" });
  }
}

/** Returns how many records name an item number that is not in the catalogue. */
async function importBoms(bomPath: string, run: ImportRun): Promise<number> {
  const { writer, keys, problems } = run;
  const file = path.basename(bomPath);
  let unknownItems = 0;
  for await (const record of records(bomPath, BOM_FILE_COLUMNS, run.onBytes)) {
    run.signal?.throwIfAborted();
    run.onRow("bom");
    if ("problem" in record) {
      problems.add({ file, line: record.line, message: record.problem });
      continue;
    }
    const parsed = BomRowSchema.safeParse(record.values);
    if (!parsed.success) {
      for (const problem of issueProblems(file, record.line, parsed.error)) problems.add(problem);
    } else {
      const row = parsed.data;
      const bom: BomDoc = {
        // Derived from the line, so importing the same file again gives the same ids.
        id: row.id ?? `bom-${record.line}`,
        type: row.type ?? "other",
        org_code: row.org_code ?? null,
        item_number: row.item_number,
        asset_number: row.asset_number ?? null,
        asset_serial_number: row.asset_serial_number ?? null,
        asset_group: row.asset_group ?? null,
        asset_description: row.asset_description ?? null,
        quantity: row.quantity ?? null,
      };
      const first = keys.claim("bom_id", bom.id, record.line);
      if (first !== null) {
        problems.add({ file, line: record.line, field: "id", message: `duplicate id ${quote(bom.id)} (first on line ${first})` });
      }
      if (!keys.knowsItem(bom.item_number)) unknownItems++;
      if (!problems.any) writer.addBom(bom);
    }
    if (problems.truncated) break;
  }
  return unknownItems;
}

/** Reads the input files' sizes, or fails with a problem per file that cannot be imported. */
function inputBytes(files: string[]): number {
  const problems: ImportProblem[] = [];
  let total = 0;
  for (const file of files) {
    const name = path.basename(file);
    if (!formatOf(file)) problems.push({ file: name, line: 0, message: "expected a .csv or .jsonl file" });
    try {
      const stat = fs.statSync(file);
      if (!stat.isFile()) problems.push({ file: name, line: 0, message: "not a file" });
      total += stat.size;
    } catch {
      problems.push({ file: name, line: 0, message: `cannot read ${file}` });
    }
  }
  if (problems.length > 0) throw new CatalogImportError(problems);
  return total;
}

/** Counts the bytes and rows read, and calls `onProgress` at most once an interval (or when forced). */
function progressMeter(options: ImportOptions, started: number, totalBytes: number) {
  let bytesRead = 0;
  let rows = 0;
  let lastReport = -Infinity;
  const interval = options.progressIntervalMs ?? 1000;
  const report = (phase: ImportProgress["phase"], force = false) => {
    const now = performance.now();
    if (!options.onProgress || (!force && now - lastReport < interval)) return;
    lastReport = now;
    const seconds = (now - started) / 1000;
    options.onProgress({
      phase,
      rows,
      rowsPerSecond: seconds > 0 ? Math.round(rows / seconds) : 0,
      bytesRead,
      totalBytes,
      etaSeconds: bytesRead > 0 && seconds > 0.2 ? Math.max(0, (seconds * (totalBytes - bytesRead)) / bytesRead) : null,
    });
  };
  return {
    report,
    onBytes: (bytes: number) => {
      bytesRead += bytes;
    },
    onRow: (phase: "items" | "bom") => {
      rows++;
      report(phase);
    },
  };
}

/** Validates and imports `itemsPath` (and `bomPath`) into a new catalogue that replaces `target`. */
export async function importCatalog(options: ImportOptions): Promise<ImportReport> {
  const started = performance.now();
  const { target, signal } = options;
  const totalBytes = inputBytes([options.itemsPath, ...(options.bomPath ? [options.bomPath] : [])]);

  fs.mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
  removeStaleTempFiles(target);
  const tempPath = tempPathFor(target);
  const progress = progressMeter(options, started, totalBytes);

  const keys = new KeyRegister();
  let writer: CatalogWriter | undefined;
  let finished = false;
  try {
    writer = new CatalogWriter(tempPath);
    const run: ImportRun = { writer, keys, problems: new Problems(), signal, onBytes: progress.onBytes, onRow: progress.onRow };
    await importItems(options.itemsPath, run);
    const bomItemsNotInCatalogue =
      options.bomPath && !run.problems.truncated ? await importBoms(options.bomPath, run) : 0;
    if (run.problems.any) throw new CatalogImportError(run.problems.list, run.problems.truncated);
    signal?.throwIfAborted();

    progress.report("indexing", true);
    const counts = writer.counts;
    writer.finish({
      source: "import",
      items_file: path.basename(options.itemsPath),
      bom_file: options.bomPath ? path.basename(options.bomPath) : "",
    });
    finished = true;
    signal?.throwIfAborted();
    commitTempFile(tempPath, target);

    const seconds = (performance.now() - started) / 1000;
    return {
      ...counts,
      seconds,
      rowsPerSecond: seconds > 0 ? Math.round((counts.items + counts.boms) / seconds) : 0,
      fileBytes: totalBytes,
      bomItemsNotInCatalogue,
    };
  } finally {
    keys.close();
    if (writer && !finished) {
      try {
        writer.abort();
      } catch {
        // The error on its way out says more than a failed rollback of a file about to be deleted.
      }
    }
    // After a successful rename the temporary name no longer exists; otherwise this drops the leftovers.
    removeIfExists(tempPath);
  }
}
