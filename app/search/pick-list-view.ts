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
import { PICK_LIST_PATH } from "./paths";
import { searchHref, serializeSearchState, type SearchState } from "./state";

/** The most rows a pick list prints: a sheet a person can walk with, and a bounded page. */
export const PICK_LIST_CAP = 500;

/**
 * The order of a pick list's rows: `walk`, the order a person walks the crib (by stock locator,
 * then subinventory and item number; the default), or `search`, the search's own order.
 */
export type PickListOrder = "walk" | "search";
export const pickListOrderOf = (params: URLSearchParams): PickListOrder => (params.get("order") === "search" ? "search" : "walk");

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
  order: PickListOrder;
  /** The same list in the other order. */
  otherOrder: { label: string; href: string };
  /** Each row's item number, for its tick box's name. */
  items: string[];
}

const LOCATOR = "stock_locator";
const walkingCollator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });
const rowKey = (doc: Doc, key: string) => {
  const name = fieldNameIn(doc, key);
  return name ? formatValue(doc[name], { blank: "" }) : "";
};

/**
 * Docs in the order a person walks the crib: by stock locator (A-2 before A-10), then
 * subinventory and item number; an item without a locator comes last, where it is found by asking.
 */
export function inWalkingOrder(docs: readonly Doc[]): Doc[] {
  const keyed = docs.map((doc) => ({ doc, locator: rowKey(doc, LOCATOR), sub: rowKey(doc, "subinventory"), item: rowKey(doc, "item_number") }));
  keyed.sort((a, b) => {
    if (!a.locator !== !b.locator) return a.locator ? -1 : 1;
    return walkingCollator.compare(a.locator, b.locator) || walkingCollator.compare(a.sub, b.sub) || walkingCollator.compare(a.item, b.item);
  });
  return keyed.map((k) => k.doc);
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
  return name ? formatValue(doc[name], { blank: "" }) : "";
}

export function buildPickList(input: { state: SearchState; config: SearchConfig; docs: Doc[]; total: number; now: Date; order?: PickListOrder }): PickListView {
  const { state, config, docs, total } = input;
  const order = input.order ?? "walk";
  const capped = docs.slice(0, PICK_LIST_CAP);
  const rows = order === "walk" ? inWalkingOrder(capped) : capped;

  return {
    heading: resultsText(total, state.q, count),
    refinement: [
      ...state.filters.map((f) => `${fieldLabel(fieldKey(f.field))} ${f.type === "include" ? "is" : "is not"} ${f.value}`),
      ...(state.within.length > 0 ? [`within: ${state.within.join(", ")}`] : []),
    ],
    range: pickListRange(rows.length, total),
    columns: PICK_LIST_COLUMNS.map((key) => ({ key, label: fieldLabel(key) })),
    rows: rows.map((doc) => PICK_LIST_COLUMNS.map((key) => valueOf(doc, key))),
    items: rows.map((doc) => rowKey(doc, "item_number")),
    backHref: searchHref(state, config),
    printedAt: printedAtOf(input.now),
    order,
    otherOrder: order === "walk" ? { label: "In the search's order", href: pickListHref(state, config, "search") } : { label: "In walking order (by stock locator)", href: pickListHref(state, config, "walk") },
  };
}

/** The pick list's parameters: the search's (page and size left out) and its order when not the default. */
export function pickListParams(state: SearchState, config: SearchConfig, order: PickListOrder = "walk"): URLSearchParams {
  const params = serializeSearchState({ ...state, page: 1 }, config);
  params.delete("rows");
  if (order === "search") params.set("order", "search");
  return params;
}

/** The search as a pick list (GET /crib-search/pick-list). */
export function pickListHref(state: SearchState, config: SearchConfig, order: PickListOrder = "walk"): string {
  const params = pickListParams(state, config, order).toString();
  return params ? `${PICK_LIST_PATH}?${params}` : PICK_LIST_PATH;
}
