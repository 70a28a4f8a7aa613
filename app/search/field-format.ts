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

/**
 * At most `max` visible characters (code points; highlight markers do not count), cut at a word
 * boundary and ended with "…". A marked run open at the cut is closed, so the result is balanced.
 */
export function snippet(text: string, max = 300): string {
  const chars = Array.from(text);
  let visible = 0;
  for (const c of chars) if (c !== HL_PRE && c !== HL_POST) visible++;
  if (visible <= max) return text;
  if (max < 1) return "";

  const plain = chars.filter((c) => c !== HL_PRE && c !== HL_POST);
  const isSpace = (at: number) => /\s/u.test(plain[at] ?? "");
  const budget = max - 1;
  const trimEnd = (end: number) => {
    while (end > 0 && isSpace(end - 1)) end--;
    return end;
  };
  let keep = budget;
  if (!isSpace(budget)) {
    let at = budget - 1;
    while (at >= 0 && !isSpace(at)) at--;
    keep = at;
  }
  keep = trimEnd(keep);
  // A single word longer than the budget is cut inside the word.
  if (keep <= 0) keep = trimEnd(budget);

  let out = "";
  let open = false;
  let seen = 0;
  for (const c of chars) {
    if (c === HL_PRE || c === HL_POST) {
      if (seen >= keep) continue;
      if (c === HL_PRE && !open) {
        out += c;
        open = true;
      } else if (c === HL_POST && open) {
        out += c;
        open = false;
      }
      continue;
    }
    if (seen >= keep) break;
    out += c;
    seen++;
  }
  if (open) out += HL_POST;
  return out + ELLIPSIS;
}

/** Display text of a field value: blanks are "N/A", lists are comma-separated, booleans Yes/No. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return "N/A";
  if (typeof value === "string") return value.trim() === "" ? "N/A" : value;
  if (typeof value === "boolean") return value ? "Yes" : "No";
  // Ids, item numbers and prices are shown as stored: locale grouping would turn 1234 into "1,234".
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "N/A";
  if (Array.isArray(value)) {
    const parts = value.filter((v) => !isEmptyValue(v)).map((v) => formatValue(v));
    return parts.length === 0 ? "N/A" : parts.join(", ");
  }
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
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
