/** How field values read on the page and in files: descriptions, snippets, values, the inactive status. */
import { HL_POST, HL_PRE } from "./engine";
import { fieldKey, fieldNameIn, isEmptyValue, isHiddenField, type FieldRecord } from "./fields";
import { perName } from "~/lib/memo";
import { catalogName, ITEM_NUMBER_FIELD } from "./catalog-fields";

/** Spec §3's description fallbacks, in order: the catalogue's own, then other sources' spellings. */
export const DESCRIPTION_FIELDS = [catalogName("item_description"), "ItemDescription_t", "ItemDescription_s", "description_t", "description_s"];


/** The item number a document shows and links by; its id when it has none. */
export function itemNumberOf(doc: FieldRecord & { id: unknown }): string {
  return String(doc[ITEM_NUMBER_FIELD] ?? doc.id);
}

/** The first non-blank description in the spec's fallback order, or null. */
export function itemDescription(doc: FieldRecord): string | null {
  for (const name of DESCRIPTION_FIELDS) {
    const value = doc[name];
    if (isEmptyValue(value)) continue;
    if (typeof value === "string") return value;
    if (typeof value === "number") return String(value);
    if (Array.isArray(value)) {
      return value.filter((v) => !isEmptyValue(v)).map(String).join(" ");
    }
  }
  return null;
}

const ELLIPSIS = "…";
const MARKERS = new RegExp(`[${HL_PRE}${HL_POST}]`, "g");
let segmenter: Intl.Segmenter | undefined;

function graphemes(text: string): string[] {
  // Cutting by UTF-16 unit or code point would split emoji and leave a base letter without its accent.
  if (typeof Intl.Segmenter !== "function") return Array.from(text);
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

const isSpace = (char: string | undefined) => char !== undefined && /^\s+$/u.test(char);

/** How many of `chars` come before the ellipsis: at most `budget`, at a word end when `at` is "word", never trailing spaces. */
function keptCount(chars: readonly string[], budget: number, at: "word" | "grapheme"): number {
  const trimEnd = (end: number) => {
    while (end > 0 && isSpace(chars[end - 1])) end--;
    return end;
  };
  if (at === "grapheme" || isSpace(chars[budget])) return trimEnd(budget);
  let end = budget;
  while (end > 0 && !isSpace(chars[end - 1])) end--;
  // A single word longer than the budget is cut inside the word.
  return trimEnd(end) || trimEnd(budget);
}

/** `text` up to its `units`th UTF-16 unit of visible text, with the markers among them; a marked run open at the cut is closed. */
function cutMarked(text: string, units: number): string {
  let out = "";
  let open = false;
  let seen = 0;
  for (const c of text) {
    if (c === HL_PRE || c === HL_POST) {
      // Stray and nested markers are dropped, as splitHighlights would.
      if (seen < units && (c === HL_PRE) !== open) {
        out += c;
        open = !open;
      }
      continue;
    }
    if (seen >= units) break;
    out += c;
    seen += c.length;
  }
  return open ? out + HL_POST : out;
}

/**
 * At most `max` visible characters (graphemes; highlight markers do not count) ending with "…",
 * cut at a word end (`at: "word"`, a single over-long word inside it) or at any grapheme. Never
 * splits a grapheme nor leaves a space before the "…"; a marked run open at the cut is closed.
 */
export function truncate(text: string, max: number, { at }: { at: "word" | "grapheme" }): string {
  // No text has more graphemes than UTF-16 units.
  if (text.length <= max) return text;
  const plain = text.replace(MARKERS, "");
  const chars = graphemes(plain);
  if (chars.length <= max) return text;
  if (max < 1) return "";
  const units = chars.slice(0, keptCount(chars, max - 1, at)).join("").length;
  return (plain.length === text.length ? text.slice(0, units) : cutMarked(text, units)) + ELLIPSIS;
}

/** A description for a results row: at most `max` visible characters, cut at a word end (see truncate). */
export function snippet(text: string, max = 300): string {
  return truncate(text, max, { at: "word" });
}

function valueText(value: unknown): string {
  if (typeof value === "string") return value.trim() === "" ? "" : value;
  if (typeof value === "boolean") return value ? "Yes" : "No";
  // Ids, item numbers and prices as stored: locale grouping would turn item 1234 into "1,234", which
  // also splits a CSV cell for readers that ignore quotes. NaN and Infinity are no one's data.
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "bigint") return String(value);
  // Blank items are skipped: "a, , b" would read as a missing value.
  if (Array.isArray(value)) return value.map(valueText).filter((text) => text !== "").join(", ");
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "" : value.toISOString();
  if (typeof value === "object" && value !== null) {
    try {
      return JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? String(v) : v)) ?? "";
    } catch {
      // A cyclic value must not break a page, nor abort a download that is already streaming.
      return "";
    }
  }
  return "";
}

/**
 * Display text of a field value, on the page and in files: booleans Yes/No, numbers as stored,
 * lists as their non-blank items joined with ", ", dates in ISO 8601, other objects as JSON. A
 * blank (missing, whitespace only, not a finite number, an invalid date, a list of blanks, a value
 * JSON cannot write) is `blank`: "N/A" on the page (the default), "" in files (cellText).
 */
export function formatValue(value: unknown, { blank = "N/A" }: { blank?: "N/A" | "" } = {}): string {
  const text = valueText(value);
  return text === "" ? blank : text;
}

/** An item's stock against its organisation's minimum stock level, when it is below it. */
export interface BelowMinimum {
  onHand: number;
  minimum: number;
}

const numberField = (doc: FieldRecord, key: string): number | null => {
  const name = fieldNameIn(doc, key);
  const value = name === undefined ? undefined : doc[name];
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
};

/** The quantity on hand and the organisation's minimum stock level of an item below that minimum; null otherwise or unknown. */
export function belowMinimumOf(doc: FieldRecord): BelowMinimum | null {
  const onHand = numberField(doc, "quantity_on_hand");
  const minimum = numberField(doc, "org_min_stock_level");
  return onHand !== null && minimum !== null && onHand < minimum ? { onHand, minimum } : null;
}

/** "3 on hand, minimum 10" */
export const belowMinimumText = (below: BelowMinimum) => `${below.onHand.toLocaleString("en-US")} on hand, minimum ${below.minimum.toLocaleString("en-US")}`;

/** A status field: the catalogue's own, or any visible field whose key is `status`. */
const isStatusField = perName((name: string): boolean => !isHiddenField(name) && fieldKey(name) === "status");

/** True when the item's status contains "inactive" in any case (spec §2 "Results table"). */
export function isInactive(doc: FieldRecord): boolean {
  for (const name in doc) {
    // A status field's key is part of its name: most names are ruled out without a lookup.
    if (!name.includes("status") || !Object.hasOwn(doc, name) || !isStatusField(name)) continue;
    const value = doc[name];
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === "string" && v.toLowerCase().includes("inactive"))) return true;
  }
  return false;
}
