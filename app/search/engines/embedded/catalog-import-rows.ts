import { z } from "zod";
import type { BomType, Doc, FieldValue } from "../../engine";
import { ITEM_NUMBER_FIELD } from "../../catalog-fields";
import { MAX_ITEM_KEY_LENGTH } from "../../../lib/limits";
import { isItemKey } from "../../paths";
import { BOM_COLUMNS, ITEM_COLUMNS, type ColumnType } from "./schema";

/*
 * The rows of an import file (format: docs/catalog-format.md) as zod schemas: one item row or BOM
 * row, CSV cells or JSON Lines values alike, becomes a catalogue document or a list of issues
 * naming the field and what is wrong with it.
 */

export const MAX_TEXT_LENGTH = 10_000;

/** A value quoted for a message, cut short so one bad cell cannot flood the report. */
export const quote = (text: string) => JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);

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

// Text may hold tabs and line breaks; other control characters have no place in a catalogue and
// can hide a formula from a spreadsheet (a NUL before `=`).
// eslint-disable-next-line no-control-regex -- control characters are exactly what it looks for
const TEXT_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

const textCell = cell((s, ctx) => {
  const control = TEXT_CONTROL.exec(s);
  if (control) {
    return reject(ctx, s, `contains the control character U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`);
  }
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

/** Item numbers and ids: what an item's path may carry (paths.ts), as they end up in URLs and file names. */
function checkKey(s: string, ctx: Ctx): string {
  if (isItemKey(s)) return s;
  if (s.length > MAX_ITEM_KEY_LENGTH) return reject(ctx, s, `longer than ${MAX_ITEM_KEY_LENGTH} characters`);
  return reject(ctx, s, "contains a line break, tab or other control character");
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
  ITEM_COLUMNS.map((c) => [c.name, c.name === ITEM_NUMBER_FIELD ? requiredKey("missing: every item needs an item number") : CELL_SCHEMAS[c.type]]),
);

/** One item row (CSV or JSON Lines) → a catalogue document; `id` defaults to the item number. */
export const ItemRowSchema = z
  .object({ ...itemShape, id: keyCell })
  .catchall(extraCell)
  .transform((row): Doc => {
    // Reuses the parsed object: a copy per row is measurable garbage on a million rows.
    row.id ??= String(row[ITEM_NUMBER_FIELD]);
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
