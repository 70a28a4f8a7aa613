import fs from "node:fs";
import path from "node:path";
import { StringDecoder } from "node:string_decoder";
import Database from "better-sqlite3";
import Papa from "papaparse";
import { z } from "zod";
import type { BomDoc, BomType, Doc, FieldValue } from "../../engine";
import { commitTempFile, removeIfExists, removeStaleTempFiles, tempPathFor } from "./catalog-build.server";
import { CatalogWriter } from "./catalog-writer.server";
import { BOM_COLUMNS, ITEM_COLUMNS, type ColumnType } from "./schema";

/*
 * Imports a catalogue from files (format: docs/catalog-format.md). Files are streamed, rows are
 * validated one by one and written into a new catalogue under a temporary name; only a complete
 * import with no problem at all replaces the previous catalogue. Any problem, exception or abort
 * leaves the previous file as it was and deletes the temporary one.
 */

export const MAX_TEXT_LENGTH = 10_000;
/** Item numbers and ids end up in URLs, file names and CSV: keep them short and printable. */
export const MAX_KEY_LENGTH = 200;
/** Problems listed before the import stops reading: a wrong delimiter would otherwise list every row. */
export const MAX_PROBLEMS = 50;
/** A longer record is almost surely an unclosed quote swallowing the rest of the file. */
const MAX_RECORD_CHARS = 4_000_000;
const CHUNK_BYTES = 1 << 20;

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

// ---------------------------------------------------------------------------------------------
// Row schemas

const quote = (text: string) => JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list of objects";
  if (typeof value === "object" && value !== null) return "an object";
  return typeof value;
}

function reject(ctx: { issues: z.core.$ZodRawIssue[] }, input: string, message: string): never {
  ctx.issues.push({ code: "custom", input, message });
  return z.NEVER;
}

const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * One cell as trimmed text. CSV cells are text already; JSON Lines values may be numbers, booleans,
 * null or lists (multi-valued index fields), which are written out the way CSV would have them.
 */
const CellText = z
  .union([Scalar, z.array(Scalar)], { error: (issue) => `expected text or a number, got ${describe(issue.input)}` })
  .optional()
  .transform((value) => {
    if (value === null || value === undefined) return "";
    if (Array.isArray(value)) return value.filter((v) => v !== null && v !== "").map(String).join(", ");
    return String(value).trim();
  });

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what it looks for
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * An ISO 8601 date or date-time as a UTC instant without milliseconds (`2024-03-15T09:30:00Z`), the
 * form Fusion returns, so both engines sort and display dates alike. A date alone is midnight UTC;
 * a time without zone is taken as UTC. Null when the text is not a real date.
 */
export function normalizeDate(text: string): string | null {
  const m = DATE.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, fraction, zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  if (h === undefined) return `${y}-${mo}-${d}T00:00:00Z`;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s ?? 0) > 59) return null;
  const offset = !zone || zone === "Z" ? "Z" : zone.includes(":") ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const ms = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s ?? "00"}${(fraction ?? "").slice(0, 4)}${offset}`);
  if (Number.isNaN(ms)) return null;
  return new Date(ms).toISOString().replace(".000Z", "Z");
}

const textCell = CellText.transform((s, ctx) => {
  if (s.length > MAX_TEXT_LENGTH) {
    return reject(ctx, s, `longer than ${MAX_TEXT_LENGTH.toLocaleString("en-US")} characters (${s.length.toLocaleString("en-US")})`);
  }
  return s === "" ? null : s;
});

const intCell = CellText.transform((s, ctx) => {
  if (s === "") return null;
  if (!INTEGER.test(s)) return reject(ctx, s, `expected an integer, got ${quote(s)}`);
  const n = Number(s);
  if (!Number.isSafeInteger(n)) return reject(ctx, s, `integer out of range, got ${quote(s)}`);
  return n;
});

const floatCell = CellText.transform((s, ctx) => {
  if (s === "") return null;
  const n = Number(s);
  if (!DECIMAL.test(s) || !Number.isFinite(n)) return reject(ctx, s, `expected a number, got ${quote(s)}`);
  return n;
});

const dateCell = CellText.transform((s, ctx) => {
  if (s === "") return null;
  return normalizeDate(s) ?? reject(ctx, s, `expected an ISO 8601 date such as 2024-03-15 or 2024-03-15T09:30:00Z, got ${quote(s)}`);
});

/** An identifier: optional here, `requiredKey` adds the presence check. */
const keyCell = CellText.transform((s, ctx) => {
  if (s.length > MAX_KEY_LENGTH) return reject(ctx, s, `longer than ${MAX_KEY_LENGTH} characters`);
  if (CONTROL.test(s)) return reject(ctx, s, "contains a line break, tab or other control character");
  return s === "" ? null : s;
});

const requiredKey = (what: string) =>
  keyCell.transform((s, ctx) => s ?? reject(ctx, "", `required: every ${what} needs one`));

const CELL_SCHEMAS: Record<ColumnType, typeof textCell | typeof intCell | typeof floatCell | typeof dateCell> = {
  string: textCell,
  text: textCell,
  int: intCell,
  float: floatCell,
  date: dateCell,
};

/** Columns outside the schema are kept as they came (the writer stores them in extra_json). */
const extraCell = z.unknown().transform((value, ctx): FieldValue => {
  if (value === null || value === undefined) return null;
  if (typeof value === "number" || typeof value === "boolean") return value;
  const text = typeof value === "string" ? value.trim() : JSON.stringify(value);
  if (text.length > MAX_TEXT_LENGTH) return reject(ctx, text, `longer than ${MAX_TEXT_LENGTH.toLocaleString("en-US")} characters`);
  return text === "" ? null : text;
});

const itemShape = Object.fromEntries(
  ITEM_COLUMNS.map((c) => [c.name, c.name === "item_number_s" ? requiredKey("item") : CELL_SCHEMAS[c.type]]),
);

/** One item row (CSV or JSON Lines) → a catalogue document; `id` defaults to the item number. */
export const ItemRowSchema = z
  .object({ ...itemShape, id: keyCell })
  .catchall(extraCell)
  .transform((row): Doc => {
    const itemNumber = row.item_number_s as string;
    return { ...row, id: (row.id as string | null) ?? itemNumber };
  });

const BOM_TYPES: readonly BomType[] = ["asset", "pm", "other"];

const bomTypeCell = CellText.transform((s, ctx): BomType => {
  if (s === "") return "other";
  const type = BOM_TYPES.find((t) => t === s.toLowerCase());
  return type ?? reject(ctx, s, `expected asset, pm or other, got ${quote(s)}`);
});

/** One BOM row; `id` is filled in by the importer when absent (see bomId). */
export const BomRowSchema = z.strictObject(
  {
    id: keyCell,
    type: bomTypeCell,
    org_code: textCell,
    item_number: requiredKey("BOM record"),
    asset_number: textCell,
    asset_serial_number: textCell,
    asset_group: textCell,
    asset_description: textCell,
    quantity: floatCell,
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? `unknown field; a BOM record has ${BOM_COLUMNS.join(", ")}` : undefined,
  },
);

// ---------------------------------------------------------------------------------------------
// Reading files

type SourceRecord =
  | { line: number; values: Record<string, unknown> }
  | { line: number; problem: string; field?: string; fatal?: boolean };

type Format = "csv" | "jsonl";

function formatOf(file: string): Format | null {
  const ext = path.extname(file).toLowerCase();
  if (ext === ".csv") return "csv";
  if (ext === ".jsonl" || ext === ".ndjson") return "jsonl";
  return null;
}

/**
 * Streams a text file as complete pieces: `split(text, final)` takes the text not yet consumed,
 * returns the pieces it could finish and how much it consumed; the rest waits for the next chunk.
 */
async function* pieces<T>(
  file: string,
  onBytes: (bytes: number) => void,
  split: (text: string, final: boolean) => { items: T[]; consumed: number },
  tooLong: () => T,
): AsyncGenerator<T> {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  let first = true;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: CHUNK_BYTES })) {
    onBytes((chunk as Buffer).length);
    pending += decoder.write(chunk as Buffer);
    if (first && pending.length > 0) {
      if (pending.charCodeAt(0) === 0xfeff) pending = pending.slice(1);
      first = false;
    }
    const { items, consumed } = split(pending, false);
    pending = pending.slice(consumed);
    yield* items;
    if (pending.length > MAX_RECORD_CHARS) {
      yield tooLong();
      return;
    }
  }
  pending += decoder.end();
  if (first && pending.charCodeAt(0) === 0xfeff) pending = pending.slice(1);
  if (pending.length > 0) yield* split(pending, true).items;
}

function countBreaks(text: string, from: number, to: number, newline: string): number {
  const mark = newline === "\r" ? "\r" : "\n";
  let count = 0;
  for (let i = text.indexOf(mark, from); i !== -1 && i < to; i = text.indexOf(mark, i + 1)) count++;
  return count;
}

function detectNewline(text: string, final: boolean): string | undefined {
  const lf = text.indexOf("\n");
  if (lf > 0 && text[lf - 1] === "\r") return "\r\n";
  if (lf !== -1) return "\n";
  const cr = text.indexOf("\r");
  if (cr !== -1 && (cr < text.length - 1 || final)) return "\r";
  return final ? "\n" : undefined;
}

interface CsvRow {
  line: number;
  cells: string[];
  error?: string;
  /** Reading cannot go on past this row. */
  fatal?: boolean;
}

/**
 * CSV rows with the physical line each starts on. papaparse parses each chunk; the last row of a
 * chunk may be cut off, so it is parsed again with the next chunk. Line numbers count the line
 * breaks inside quoted cells too, so they match what an editor shows.
 */
function csvRows(file: string, onBytes: (bytes: number) => void): AsyncGenerator<CsvRow> {
  let newline: string | undefined;
  let line = 1;
  return pieces<CsvRow>(
    file,
    onBytes,
    (text, final) => {
      newline ??= detectNewline(text, final);
      if (newline === undefined) return { items: [], consumed: 0 };
      const parsed: { start: number; end: number; cells: string[]; error?: string }[] = [];
      let start = 0;
      Papa.parse<string[]>(text, {
        delimiter: ",",
        quoteChar: '"',
        newline: newline as "\n",
        step: (result) => {
          const end = result.meta.cursor;
          const error = result.errors[0]?.message;
          parsed.push({ start, end, cells: result.data, ...(error ? { error } : {}) });
          start = end;
        },
      });
      const complete = final ? parsed : parsed.slice(0, -1);
      const rows: CsvRow[] = [];
      for (const row of complete) {
        rows.push({ line, cells: row.cells, ...(row.error ? { error: row.error } : {}) });
        line += countBreaks(text, row.start, row.end, newline);
      }
      return { items: rows, consumed: final ? text.length : (complete.at(-1)?.end ?? 0) };
    },
    () => ({ line, cells: [], fatal: true, error: `a record longer than ${MAX_RECORD_CHARS.toLocaleString("en-US")} characters: probably a quote that is never closed` }),
  );
}

interface Columns {
  /** Column names accepted as is; others are an error unless `extraColumns`. */
  known: readonly string[];
  required: readonly string[];
  extraColumns: boolean;
}

async function* csvRecords(file: string, columns: Columns, onBytes: (bytes: number) => void): AsyncGenerator<SourceRecord> {
  let header: (string | null)[] | null = null;
  const canonical = new Map(columns.known.map((name) => [name.toLowerCase(), name]));
  for await (const row of csvRows(file, onBytes)) {
    if (row.error) {
      const hint = row.fatal ? "" : " (a value holding a double quote must be in double quotes, its quotes doubled)";
      yield { line: row.line, problem: `malformed CSV: ${row.error}${hint}`, ...(row.fatal ? { fatal: true } : {}) };
      if (row.fatal) return;
      continue;
    }
    const blank = row.cells.every((c) => c.trim() === "");
    if (header === null) {
      if (blank) continue;
      const names = row.cells.map((c) => {
        const name = c.trim();
        return name === "" ? null : (canonical.get(name.toLowerCase()) ?? name);
      });
      const problems: string[] = [];
      const seen = new Set<string>();
      for (const name of names) {
        if (name === null) continue;
        if (seen.has(name)) problems.push(`column ${name} appears twice`);
        seen.add(name);
        if (!columns.extraColumns && !canonical.has(name.toLowerCase())) {
          problems.push(`unknown column ${name}; the columns are ${columns.known.join(", ")}`);
        }
      }
      for (const name of columns.required) {
        if (!seen.has(name)) problems.push(`the header has no ${name} column (the first line must name the columns)`);
      }
      if (problems.length > 0) {
        for (const problem of problems) yield { line: row.line, problem, fatal: true };
        return;
      }
      header = names;
      continue;
    }
    if (blank) continue;
    if (row.cells.length !== header.length) {
      yield {
        line: row.line,
        problem: `expected ${header.length} fields (one per header column), found ${row.cells.length}${
          row.cells.length > header.length ? "; is a value with a comma not in double quotes?" : ""
        }`,
      };
      continue;
    }
    const values: Record<string, unknown> = {};
    let unnamed = false;
    header.forEach((name, i) => {
      const cell = row.cells[i] ?? "";
      if (name === null) unnamed ||= cell.trim() !== "";
      else if (name !== "__proto__") values[name] = cell;
    });
    if (unnamed) yield { line: row.line, problem: "a value in a column without a name in the header" };
    else yield { line: row.line, values };
  }
  if (header === null) yield { line: 0, problem: "the file is empty: expected a header line naming the columns", fatal: true };
}

async function* jsonlRecords(file: string, onBytes: (bytes: number) => void): AsyncGenerator<SourceRecord> {
  let line = 1;
  const lines = pieces<SourceRecord | null>(
    file,
    onBytes,
    (text, final) => {
      const items: (SourceRecord | null)[] = [];
      let start = 0;
      for (let end = text.indexOf("\n"); end !== -1 || (final && start < text.length); end = text.indexOf("\n", start)) {
        const stop = end === -1 ? text.length : end;
        const json = text.slice(start, stop).trim();
        start = stop + 1;
        const at = line++;
        if (json === "") {
          items.push(null);
          continue;
        }
        try {
          const value: unknown = JSON.parse(json);
          items.push(
            typeof value === "object" && value !== null && !Array.isArray(value)
              ? { line: at, values: value as Record<string, unknown> }
              : { line: at, problem: `expected a JSON object, got ${Array.isArray(value) ? "a list" : typeof value}` },
          );
        } catch (error) {
          items.push({ line: at, problem: `not valid JSON: ${(error as Error).message}` });
        }
      }
      return { items, consumed: Math.min(start, text.length) };
    },
    () => ({ line, problem: `a line longer than ${MAX_RECORD_CHARS.toLocaleString("en-US")} characters`, fatal: true }),
  );
  for await (const record of lines) if (record) yield record;
}

function records(file: string, columns: Columns, onBytes: (bytes: number) => void): AsyncGenerator<SourceRecord> {
  return formatOf(file) === "jsonl" ? jsonlRecords(file, onBytes) : csvRecords(file, columns, onBytes);
}

// ---------------------------------------------------------------------------------------------
// Uniqueness

/**
 * Remembers every item number, item id and BOM id with its line, so a duplicate names both lines.
 * It lives in a throw-away SQLite file rather than a JS Map: a million keys stay off the heap.
 * Item numbers compare case-insensitively (ASCII), as the catalogue looks them up.
 */
type KeyKind = "item_number" | "item_id" | "bom_id";

class KeyRegister {
  private readonly db = new Database("");
  private readonly statements: Record<KeyKind, { claim: Database.Statement; line: Database.Statement }>;
  private readonly hasItemNumber: Database.Statement;

  constructor() {
    this.db.pragma("journal_mode = OFF");
    this.db.pragma("synchronous = OFF");
    this.db.pragma("cache_size = -32768");
    const tables: Record<KeyKind, string> = { item_number: "COLLATE NOCASE", item_id: "", bom_id: "" };
    const statements = {} as Record<KeyKind, { claim: Database.Statement; line: Database.Statement }>;
    for (const [table, collate] of Object.entries(tables) as [KeyKind, string][]) {
      this.db.exec(`CREATE TABLE ${table} (key TEXT PRIMARY KEY ${collate}, line INTEGER NOT NULL) WITHOUT ROWID`);
      statements[table] = {
        claim: this.db.prepare(`INSERT INTO ${table} (key, line) VALUES (?, ?) ON CONFLICT DO NOTHING`),
        line: this.db.prepare(`SELECT line FROM ${table} WHERE key = ?`).pluck(),
      };
    }
    this.statements = statements;
    this.hasItemNumber = this.db.prepare("SELECT 1 FROM item_number WHERE key = ?").pluck();
    this.db.exec("BEGIN");
  }

  /** Records `key`; when it was seen before, returns the line it was first seen on. */
  claim(kind: KeyKind, key: string, line: number): number | null {
    const { claim, line: firstLine } = this.statements[kind];
    if (claim.run(key, line).changes === 1) return null;
    return firstLine.get(key) as number;
  }

  knowsItem(itemNumber: string): boolean {
    return this.hasItemNumber.get(itemNumber) !== undefined;
  }

  close(): void {
    this.db.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The import

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
  truncated = false;
  add(problem: ImportProblem): void {
    if (this.list.length < MAX_PROBLEMS) this.list.push(problem);
    else this.truncated = true;
  }
  get full(): boolean {
    return this.list.length >= MAX_PROBLEMS;
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

/** Validates and imports `itemsPath` (and `bomPath`) into a new catalogue that replaces `target`. */
export async function importCatalog(options: ImportOptions): Promise<ImportReport> {
  const started = performance.now();
  const { target, signal } = options;
  const inputs = [options.itemsPath, ...(options.bomPath ? [options.bomPath] : [])];

  const fileProblems: ImportProblem[] = [];
  let totalBytes = 0;
  for (const file of inputs) {
    const name = path.basename(file);
    if (!formatOf(file)) fileProblems.push({ file: name, line: 0, message: "expected a .csv or .jsonl file" });
    try {
      const stat = fs.statSync(file);
      if (!stat.isFile()) fileProblems.push({ file: name, line: 0, message: "not a file" });
      totalBytes += stat.size;
    } catch {
      fileProblems.push({ file: name, line: 0, message: `cannot read ${file}` });
    }
  }
  if (fileProblems.length > 0) throw new CatalogImportError(fileProblems);

  fs.mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
  removeStaleTempFiles(target);
  const tempPath = tempPathFor(target);
  const problems = new Problems();
  let bytesRead = 0;
  let rows = 0;
  let lastProgress = -Infinity;
  const interval = options.progressIntervalMs ?? 1000;
  const progress = (phase: ImportProgress["phase"], force = false) => {
    const now = performance.now();
    if (!options.onProgress || (!force && now - lastProgress < interval)) return;
    lastProgress = now;
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
  const onBytes = (bytes: number) => {
    bytesRead += bytes;
  };

  const keys = new KeyRegister();
  let writer: CatalogWriter | undefined;
  let finished = false;
  let bomItemsNotInCatalogue = 0;
  try {
    const w = new CatalogWriter(tempPath);
    writer = w;

    const itemsFile = path.basename(options.itemsPath);
    const itemColumns: Columns = { known: ["id", ...ITEM_COLUMNS.map((c) => c.name)], required: ["item_number_s"], extraColumns: true };
    for await (const record of records(options.itemsPath, itemColumns, onBytes)) {
      signal?.throwIfAborted();
      rows++;
      progress("items");
      if ("problem" in record) {
        problems.add({ file: itemsFile, line: record.line, message: record.problem });
        if (record.fatal) break;
        continue;
      }
      const parsed = ItemRowSchema.safeParse(record.values);
      if (!parsed.success) {
        for (const problem of issueProblems(itemsFile, record.line, parsed.error)) problems.add(problem);
      } else {
        const doc = parsed.data;
        const itemNumber = String(doc.item_number_s);
        const firstNumber = keys.claim("item_number", itemNumber, record.line);
        if (firstNumber !== null) {
          problems.add({
            file: itemsFile,
            line: record.line,
            field: "item_number_s",
            message: `duplicate item number ${quote(itemNumber)} (first on line ${firstNumber})`,
          });
        }
        const firstId = keys.claim("item_id", doc.id, record.line);
        if (firstId !== null) {
          problems.add({ file: itemsFile, line: record.line, field: "id", message: `duplicate id ${quote(doc.id)} (first on line ${firstId})` });
        }
        // After the first problem rows are only checked: the file will be thrown away anyway.
        if (!problems.any) w.addItem(doc);
      }
      if (problems.full) break;
    }
    if (!problems.any && w.counts.items === 0) {
      problems.add({ file: itemsFile, line: 0, message: "no items: importing it would leave an empty catalogue" });
    }

    if (options.bomPath && !problems.full) {
      const bomFile = path.basename(options.bomPath);
      const bomColumns: Columns = { known: BOM_COLUMNS, required: ["item_number"], extraColumns: false };
      for await (const record of records(options.bomPath, bomColumns, onBytes)) {
        signal?.throwIfAborted();
        rows++;
        progress("bom");
        if ("problem" in record) {
          problems.add({ file: bomFile, line: record.line, message: record.problem });
          if (record.fatal) break;
          continue;
        }
        const parsed = BomRowSchema.safeParse(record.values);
        if (!parsed.success) {
          for (const problem of issueProblems(bomFile, record.line, parsed.error)) problems.add(problem);
        } else {
          // Generated ids are stable across imports of the same file.
          const bom: BomDoc = { ...parsed.data, id: parsed.data.id ?? `bom-${record.line}` };
          const first = keys.claim("bom_id", bom.id, record.line);
          if (first !== null) {
            problems.add({ file: bomFile, line: record.line, field: "id", message: `duplicate id ${quote(bom.id)} (first on line ${first})` });
          }
          if (!keys.knowsItem(bom.item_number)) bomItemsNotInCatalogue++;
          if (!problems.any) w.addBom(bom);
        }
        if (problems.full) break;
      }
    }

    if (problems.any) throw new CatalogImportError(problems.list, problems.truncated);
    signal?.throwIfAborted();

    progress("indexing", true);
    const counts = w.counts;
    w.finish({
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
