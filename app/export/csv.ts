import Papa from "papaparse";
import { formatValue, truncate } from "~/search/field-format";
import { fieldLabel } from "~/search/fields";

/**
 * The one CSV writer for every export (docs/decisions/004-csv-export-safety.md). Pure: the export
 * dialog's preview imports it in the browser, the download routes on the server.
 */

/** Without it Excel reads UTF-8 as the machine's legacy code page and mangles accents and CJK. */
export const BOM = "\uFEFF";

/** A value's text in a file: formatValue's, with blanks left empty. */
export function cellText(value: unknown): string {
  return formatValue(value, { blank: "" });
}

// Trigger characters of OWASP's CSV-injection list (LF added in 2025), plus the full-width and
// small-form variants, which East Asian spreadsheet input converts to their ASCII meaning.
const FORMULA_START = /^[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20\uFE66\uFE62\uFE63\uFE6B]/u;
// A spreadsheet may skip, or show nothing for, any character of the Unicode categories Cc
// (controls, U+0085 included), Cf (format: zero-width, U+180E, U+FFF9–U+FFFB, U+FEFF) and Z*
// (every space and separator), the other default-ignorable characters (fillers, variation
// selectors) and the noncharacters (U+FFFE, U+FFFF): LibreOffice ran `\0=HYPERLINK(…)` as a
// formula. So any run of them may hide a trigger, and the cell is neutralised as if they were not
// there. Lone surrogates are added for the same reason (a reader replaces them or drops them).
const HIDDEN = "\\s\\p{Cc}\\p{Cf}\\p{Z}\\p{Default_Ignorable_Code_Point}\\p{Noncharacter_Code_Point}\\p{Cs}";
const LEADING_BLANK = new RegExp(`^[${HIDDEN}]+`, "u");
// A line of a multi-line cell that starts with a trigger: an importer that splits the cell at its
// line breaks would read that line as a formula of its own.
const LINE_TRIGGER = new RegExp(`(\\r\\n|\\r|\\n)((?:(?![\\r\\n])[${HIDDEN}])*)(?=[=+\\-@\\uFF1D\\uFF0B\\uFF0D\\uFF20\\uFE66\\uFE62\\uFE63\\uFE6B])`, "gu");
const NEGATIVE_NUMBER = /^-\d+(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * Formula-injection neutralisation (OWASP CSV injection): a cell whose first character, after any
 * leading run of characters a spreadsheet may skip (Unicode Cc, Cf and Z*, the other
 * default-ignorable characters and the noncharacters), is = + - @ Tab CR LF or a full-width/small-form variant gets a leading `'`, which
 * spreadsheets read as "this is text". Each line of a multi-line cell is treated the same way.
 *
 * Exception: a plain negative number (`-5`, `-3.25`, `-1e-7`) stays as it is, so prices and
 * quantities remain numbers in the spreadsheet. It is safe because the whole cell must match —
 * digits, one dot, an exponent — so there is no room for a function name, reference or operator
 * chain; Excel and LibreOffice read it as a constant.
 */
export function neutralizeCell(text: string): string {
  if (NEGATIVE_NUMBER.test(text)) return text;
  const lines = text.replace(LINE_TRIGGER, "$1$2'");
  if (FORMULA_START.test(lines) || FORMULA_START.test(lines.replace(LEADING_BLANK, ""))) return `'${lines}`;
  return lines;
}

// Every field is quoted (OWASP's advice). Minimal RFC 4180 quoting would be enough for readers
// that split on commas, but Excel in many European locales splits on ";" and could otherwise turn
// `a;=1+2` into a second cell that starts a formula. Quoted numbers are still read as numbers.
const UNPARSE: Papa.UnparseConfig = { quotes: true, quoteChar: '"', delimiter: ",", newline: "\r\n", header: false, escapeFormulae: false };

/** One CSV line (no line terminator) of already formatted and neutralised values; every field quoted. */
export function csvLine(cells: readonly string[]): string {
  return Papa.unparse([[...cells]], UNPARSE);
}

function ownValue(record: Readonly<Record<string, unknown>>, key: string): unknown {
  // Own properties only: a field named "constructor" must not export Object's constructor.
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Header line from index field names; `labels` (by field name) overrides the label rules of spec §3. */
export function csvHeader(fields: readonly string[], labels?: Readonly<Record<string, string>>): string {
  // Labels can come from configuration, so they are neutralised like data.
  return csvLine(
    fields.map((name) => {
      const label = labels ? ownValue(labels, name) : undefined;
      return neutralizeCell(typeof label === "string" ? label : fieldLabel(name));
    }),
  );
}

/** Rows of documents for the given fields, each line ending in CRLF; "" for no documents. */
export function csvRows(docs: readonly Readonly<Record<string, unknown>>[], fields: readonly string[]): string {
  if (docs.length === 0) return "";
  const rows = docs.map((doc) => fields.map((name) => neutralizeCell(cellText(ownValue(doc, name)))));
  // One unparse call per batch: papaparse reads its configuration on every call.
  return `${Papa.unparse(rows, UNPARSE)}\r\n`;
}

/** A whole small file (BOM, header, rows), for one-shot exports such as a single item. */
export function csvDocument(
  docs: readonly Readonly<Record<string, unknown>>[],
  fields: readonly string[],
  labels?: Readonly<Record<string, string>>,
): string {
  return `${BOM}${csvHeader(fields, labels)}\r\n${csvRows(docs, fields)}`;
}

/**
 * A preview cell for the export dialog: the cell's text in at most `max` characters (graphemes),
 * "…" included, cut anywhere but inside a grapheme. Not neutralised: the preview is HTML text,
 * where a formula is harmless and `'` would mislead.
 */
export function previewCell(value: unknown, max = 30): string {
  return truncate(cellText(value), max, { at: "grapheme" });
}
