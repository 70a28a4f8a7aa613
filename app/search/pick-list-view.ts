/**
 * The printed pick list of a search (issue 29): every row up to a cap, with the columns a picker
 * walks the crib by (the stock locator and subinventory, the quantity on hand) and a header that
 * says which search it is, how much of it the sheet holds and when it was printed. Pure: the web
 * layer fetches the rows and renders the document.
 */
import { PICK_LIST_COLUMNS } from "./catalog-fields";
import type { Doc } from "./engine";
import { formatValue, itemDescription, snippet } from "./field-format";
import { fieldKey, fieldLabel, fieldNameIn } from "./fields";
import { resultsText } from "./result-count";
import type { SearchConfig } from "./search-config";
import { searchHref, type SearchState } from "./state";

/** The most rows a pick list prints: a sheet a person can walk with, and a bounded page. */
export const PICK_LIST_CAP = 500;


export interface PickListView {
  /** "148 results for "pump"" */
  heading: string;
  /** The filters and search-within terms, in words. */
  refinement: string[];
  /** "1–148 of 148" or "first 500 of 5,000". */
  range: string;
  columns: { key: string; label: string }[];
  rows: string[][];
  /** The results page this list was printed from. */
  backHref: string;
  /** When it was made, as people write it (UTC, so every replica says the same). */
  printedAt: string;
}

const count = (n: number) => n.toLocaleString("en-US");

/** `2026-11-27 21:40 UTC` */
export function printedAtOf(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export function pickListRange(shown: number, total: number): string {
  if (total === 0) return "0 of 0";
  return shown < total ? `first ${count(shown)} of ${count(total)}` : `1–${count(shown)} of ${count(total)}`;
}

/** A doc's value for a field key, whatever suffix the engine gave the field. */
function valueOf(doc: Doc, key: string): string {
  if (key === "item_description") {
    const text = itemDescription(doc);
    return text ? snippet(text, 120) : "";
  }
  const name = fieldNameIn(doc, key);
  return name ? formatValue(doc[name]) : "";
}

export function buildPickList(input: { state: SearchState; config: SearchConfig; docs: Doc[]; total: number; now: Date }): PickListView {
  const { state, config, docs, total } = input;
  const rows = docs.slice(0, PICK_LIST_CAP);
  return {
    heading: resultsText(total, state.q, count),
    refinement: [
      ...state.filters.map((f) => `${fieldLabel(fieldKey(f.field))} ${f.type === "include" ? "is" : "is not"} ${f.value}`),
      ...(state.within.length > 0 ? [`within: ${state.within.join(", ")}`] : []),
    ],
    range: pickListRange(rows.length, total),
    columns: PICK_LIST_COLUMNS.map((key) => ({ key, label: fieldLabel(key) })),
    rows: rows.map((doc) => PICK_LIST_COLUMNS.map((key) => valueOf(doc, key))),
    backHref: searchHref(state, config),
    printedAt: printedAtOf(input.now),
  };
}
