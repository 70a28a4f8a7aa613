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
  if (Array.isArray(value)) return "a list of objects";
  if (typeof value === "object" && value !== null) return "an object";
  return typeof value;
}

type Ctx = { issues: z.core.$ZodRawIssue[] };

function reject(ctx: Ctx, input: string, message: string): never {
  ctx.issues.push({ code: "custom", input, message });
  return z.NEVER;
}

const isScalar = (v: unknown) => v === null || ["string", "number", "boolean"].includes(typeof v);

/**
 * A cell as trimmed text. CSV cells are text already; JSON Lines values may be numbers, booleans,
 * null or lists (multi-valued index fields), written out the way a CSV would hold them.
 * Undefined for what no cell can hold (objects).
 */
function cellText(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim();
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) && value.every(isScalar)) {
    return value.filter((v) => v !== null && v !== "").map((v) => String(v).trim()).join(", ");
  }
  return undefined;
}

/**
 * A column's schema: the cell's text, then `convert`. One transform per cell rather than a chain of
 * zod types: this runs fifty times per row, a million rows per import.
 */
function cellSchema<T>(convert: (text: string, ctx: Ctx) => T) {
  return z.unknown().transform((value, ctx): T => {
    const text = cellText(value);
    return text === undefined ? reject(ctx, "", `expected text or a number, got ${describe(value)}`) : convert(text, ctx);
  });
}

/** An optional column: a missing key (JSON Lines, or a column the CSV leaves out) stays absent. */
const cell = <T>(convert: (text: string, ctx: Ctx) => T) => cellSchema(convert).optional();

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what it looks for
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * An ISO 8601 date or date-time as a UTC instant (`2024-03-15T09:30:00Z`, milliseconds only when not
 * zero), the form Fusion returns, so both engines sort and display dates alike. A date alone is midnight UTC;
 * a time without zone is taken as UTC. Null when the text is not a real date.
 */
export function normalizeDate(text: string): string | null {
  const m = DATE.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s = "00", fraction = "", zone = "Z"] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (h === undefined) return `${y}-${mo}-${d}T00:00:00Z`;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  // The common case needs no Date: a million rows carry two dates each.
  if (zone === "Z" && Number(fraction || 0) === 0) return `${y}-${mo}-${d}T${h}:${mi}:${s}Z`;
  const offset = zone === "Z" || zone.includes(":") ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const ms = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}${fraction.slice(0, 4)}${offset}`);
  if (Number.isNaN(ms)) return null;
  return new Date(ms).toISOString().replace(".000Z", "Z");
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

const textCell = cell((s, ctx) => {
  if (s.length > MAX_TEXT_LENGTH) {
    return reject(ctx, s, `longer than ${MAX_TEXT_LENGTH.toLocaleString("en-US")} characters (${s.length.toLocaleString("en-US")})`);
  }
  return s === "" ? null : s;
});

const intCell = cell((s, ctx) => {
  if (s === "") return null;
  if (!INTEGER.test(s)) return reject(ctx, s, `expected an integer, got ${quote(s)}`);
  const n = Number(s);
  if (!Number.isSafeInteger(n)) return reject(ctx, s, `integer out of range, got ${quote(s)}`);
  return n;
});

const floatCell = cell((s, ctx) => {
  if (s === "") return null;
  const n = Number(s);
  if (!DECIMAL.test(s) || !Number.isFinite(n)) return reject(ctx, s, `expected a number, got ${quote(s)}`);
  return n;
});

const dateCell = cell((s, ctx) => {
  if (s === "") return null;
  return normalizeDate(s) ?? reject(ctx, s, `expected an ISO 8601 date such as 2024-03-15 or 2024-03-15T09:30:00Z, got ${quote(s)}`);
});

/** Item numbers and ids: short and printable, as they end up in URLs and file names. */
function checkKey(s: string, ctx: Ctx): string {
  if (s.length > MAX_KEY_LENGTH) return reject(ctx, s, `longer than ${MAX_KEY_LENGTH} characters`);
  if (CONTROL.test(s)) return reject(ctx, s, "contains a line break, tab or other control character");
  return s;
}

const keyCell = cell((s, ctx) => (s === "" ? null : checkKey(s, ctx)));

/** A missing key must reach the check too, hence the preprocess rather than an optional cell. */
const requiredKey = (message: string) =>
  z.preprocess(
    (value) => value ?? "",
    cellSchema((s, ctx) => (s === "" ? reject(ctx, s, message) : checkKey(s, ctx))),
  );

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
  ITEM_COLUMNS.map((c) => [c.name, c.name === "item_number_s" ? requiredKey("missing: every item needs an item number") : CELL_SCHEMAS[c.type]]),
);

/** One item row (CSV or JSON Lines) → a catalogue document; `id` defaults to the item number. */
export const ItemRowSchema = z
  .object({ ...itemShape, id: keyCell })
  .catchall(extraCell)
  .transform((row): Doc => {
    // Reuses the parsed object: a copy per row is measurable garbage on a million rows.
    row.id ??= String(row.item_number_s);
    return row as Doc;
  });

const BOM_TYPES: readonly BomType[] = ["asset", "pm", "other"];

const bomTypeCell = cell((s, ctx): BomType => {
  if (s === "") return "other";
  const type = BOM_TYPES.find((t) => t === s.toLowerCase());
  return type ?? reject(ctx, s, `expected asset, pm or other, got ${quote(s)}`);
});

/** One BOM row; the importer fills in `id` when absent. */
export const BomRowSchema = z.strictObject(
  {
    id: keyCell,
    type: bomTypeCell,
    org_code: textCell,
    item_number: requiredKey("missing: every BOM record needs the item number of its component"),
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

/** A row to validate, or a problem with the file itself. Readers end after a problem they cannot read past. */
type SourceRecord = { line: number; values: Record<string, unknown> } | { line: number; problem: string };

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
    () => ({
      line,
      cells: [],
      fatal: true,
      error: `a record longer than ${MAX_RECORD_CHARS.toLocaleString("en-US")} characters: probably a quote that is never closed`,
    }),
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
      yield { line: row.line, problem: `malformed CSV: ${row.error}${hint}` };
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
        for (const problem of problems) yield { line: row.line, problem };
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
  if (header === null) yield { line: 0, problem: "the file is empty: expected a header line naming the columns" };
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
              : { line: at, problem: `expected a JSON object, got ${value === null ? "null" : Array.isArray(value) ? "a list" : typeof value}` },
          );
        } catch (error) {
          items.push({ line: at, problem: `not valid JSON: ${(error as Error).message}` });
        }
      }
      return { items, consumed: Math.min(start, text.length) };
    },
    () => ({ line, problem: `a line longer than ${MAX_RECORD_CHARS.toLocaleString("en-US")} characters` }),
  );
  for await (const record of lines) if (record) yield record;
}

function records(file: string, columns: Columns, onBytes: (bytes: number) => void): AsyncGenerator<SourceRecord> {
  return formatOf(file) === "jsonl" ? jsonlRecords(file, onBytes) : csvRecords(file, columns, onBytes);
}

// ---------------------------------------------------------------------------------------------
// Uniqueness

type KeyKind = "item_number" | "item_id" | "bom_id";

/**
 * Remembers every item number, item id and BOM id with its line, so a duplicate names both lines.
 * It lives in a throw-away SQLite file rather than a JS Map: a million keys stay off the heap.
 * Item numbers compare case-insensitively (ASCII), as the catalogue looks them up.
 */
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

const ITEM_FILE_COLUMNS: Columns = { known: ["id", ...ITEM_COLUMNS.map((c) => c.name)], required: ["item_number_s"], extraColumns: true };
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
      const itemNumber = String(doc.item_number_s);
      const firstNumber = keys.claim("item_number", itemNumber, record.line);
      if (firstNumber !== null) {
        problems.add({
          file,
          line: record.line,
          field: "item_number_s",
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

/** Validates and imports `itemsPath` (and `bomPath`) into a new catalogue that replaces `target`. */
export async function importCatalog(options: ImportOptions): Promise<ImportReport> {
  const started = performance.now();
  const { target, signal } = options;
  const totalBytes = inputBytes([options.itemsPath, ...(options.bomPath ? [options.bomPath] : [])]);

  fs.mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
  removeStaleTempFiles(target);
  const tempPath = tempPathFor(target);
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

  const keys = new KeyRegister();
  let writer: CatalogWriter | undefined;
  let finished = false;
  try {
    writer = new CatalogWriter(tempPath);
    const run: ImportRun = {
      writer,
      keys,
      problems: new Problems(),
      signal,
      onBytes: (bytes) => {
        bytesRead += bytes;
      },
      onRow: (phase) => {
        rows++;
        progress(phase);
      },
    };
    await importItems(options.itemsPath, run);
    const bomItemsNotInCatalogue =
      options.bomPath && !run.problems.truncated ? await importBoms(options.bomPath, run) : 0;
    if (run.problems.any) throw new CatalogImportError(run.problems.list, run.problems.truncated);
    signal?.throwIfAborted();

    progress("indexing", true);
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
