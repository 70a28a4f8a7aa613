import fs from "node:fs";
import path from "node:path";
import { StringDecoder } from "node:string_decoder";
import Papa from "papaparse";

/*
 * Reads import files (CSV or JSON Lines) as a stream of records, each with the physical line it
 * starts on, or a problem with the file itself. Memory stays flat whatever the file's size: files
 * are read a chunk at a time and only a record cut off by a chunk's end waits for the next one.
 */

/** A longer record is almost surely an unclosed quote swallowing the rest of the file. */
const MAX_RECORD_CHARS = 4_000_000;
const CHUNK_BYTES = 1 << 20;

/** A row to validate, or a problem with the file itself. Readers end after a problem they cannot read past. */
export type SourceRecord = { line: number; values: Record<string, unknown> } | { line: number; problem: string };

type Format = "csv" | "jsonl";

export function formatOf(file: string): Format | null {
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

export interface Columns {
  /** Column names accepted as is; others are an error unless `extraColumns`. */
  known: readonly string[];
  required: readonly string[];
  extraColumns: boolean;
}

/** What is wrong with a header's column names (known names already in their canonical case). */
function headerProblems(names: readonly (string | null)[], columns: Columns): string[] {
  const known = new Set(columns.known);
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    if (name === null) continue;
    if (seen.has(name)) problems.push(`column ${name} appears twice`);
    seen.add(name);
    if (!columns.extraColumns && !known.has(name)) {
      problems.push(`unknown column ${name}; the columns are ${columns.known.join(", ")}`);
    }
  }
  for (const name of columns.required) {
    if (!seen.has(name)) problems.push(`the header has no ${name} column (the first line must name the columns)`);
  }
  return problems;
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
      const problems = headerProblems(names, columns);
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

/**
 * The records of `file`, by its extension. A CSV header is checked against `columns`; JSON Lines
 * carry their names on every line, so the row schemas check those.
 */
export function records(file: string, columns: Columns, onBytes: (bytes: number) => void): AsyncGenerator<SourceRecord> {
  return formatOf(file) === "jsonl" ? jsonlRecords(file, onBytes) : csvRecords(file, columns, onBytes);
}
