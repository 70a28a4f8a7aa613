/**
 * The lines of the BOM an asset, PM kit or tool heads (`/boms/{head}`, decision 037): each BOM
 * record joined with its part from the catalogue (description, unit, stock, locator), sorted by a
 * column and paged. Pure: the web layer fetches the records and the items and gets a view back.
 */
import type { BomDoc, BomType, Doc, SortDirection } from "./engine";
import { itemDescription } from "./field-format";
import { pagerView, totalPages, type PagerView } from "./pager";
import { headLinesPath, isLinkedItemKey, productPath, withBack } from "./paths";
import { numberKey } from "./query/query";

/** A head's lines read at most: a page and its export stay bounded whatever a BOM holds. */
export const HEAD_LINES_MAX = 2000;
export const HEAD_LINES_PAGE_SIZE = 100;

/** The catalogue fields a line takes from its part. */
export const PART_FIELDS = {
  unit: "attribute_issue_uom_s",
  stock: "attribute_quantity_on_hand_i",
  locator: "attribute_stock_locator_s",
} as const;

export interface HeadLine {
  item_number: string;
  description: string | null;
  quantity: number | null;
  unit: string | null;
  stock: number | null;
  locator: string | null;
}

export type HeadLineField = keyof HeadLine;

/** The table's columns and the export's, in order, with their labels. */
export const HEAD_LINE_COLUMNS: readonly { field: HeadLineField; label: string }[] = [
  { field: "item_number", label: "Item Number" },
  { field: "description", label: "Description" },
  { field: "quantity", label: "Quantity" },
  { field: "unit", label: "Unit" },
  { field: "stock", label: "In Stock" },
  { field: "locator", label: "Stock Locator" },
];

export interface LinesSort {
  field: HeadLineField;
  direction: SortDirection;
}

/** `sort=<column> asc|desc`; anything else is the BOM's own order (null). */
export function parseLinesSort(value: string | null): LinesSort | null {
  const match = /^(\w+) (asc|desc)$/.exec(value?.trim() ?? "");
  if (!match || !HEAD_LINE_COLUMNS.some((c) => c.field === match[1])) return null;
  return { field: match[1] as HeadLineField, direction: match[2] as SortDirection };
}

export function serializeLinesSort(sort: LinesSort | null): string | null {
  return sort ? `${sort.field} ${sort.direction}` : null;
}

const text = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value : typeof value === "number" ? String(value) : null);
const number = (value: unknown): number | null => {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return null;
};

/**
 * Each record with its part: matched by item number with case and separators ignored, as item
 * numbers are looked up everywhere. A part the catalogue does not have leaves its cells empty.
 */
export function joinLines(records: readonly BomDoc[], items: readonly Doc[]): HeadLine[] {
  const byKey = new Map<string, Doc>();
  for (const item of items) {
    const itemNumber = item.item_number_s;
    if (typeof itemNumber === "string" && !byKey.has(numberKey(itemNumber))) byKey.set(numberKey(itemNumber), item);
  }
  return records.map((record) => {
    const part = byKey.get(numberKey(record.item_number));
    return {
      item_number: record.item_number,
      description: part ? itemDescription(part) : null,
      quantity: record.quantity,
      unit: part ? text(part[PART_FIELDS.unit]) : null,
      stock: part ? number(part[PART_FIELDS.stock]) : null,
      locator: part ? text(part[PART_FIELDS.locator]) : null,
    };
  });
}

const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });

/** Sorted by one column: numbers as numbers, text ignoring case, empty cells last either way; stable. */
export function sortLines(lines: readonly HeadLine[], sort: LinesSort | null): HeadLine[] {
  if (!sort) return [...lines];
  const sign = sort.direction === "desc" ? -1 : 1;
  return lines
    .map((line, index) => ({ line, index }))
    .sort((a, b) => {
      const x = a.line[sort.field];
      const y = b.line[sort.field];
      if (x === null || y === null) return x === y ? a.index - b.index : x === null ? 1 : -1;
      const order = typeof x === "number" && typeof y === "number" ? x - y : collator.compare(String(x), String(y));
      return order === 0 ? a.index - b.index : sign * order;
    })
    .map(({ line }) => line);
}

/** What the page says of the head itself, from its records (they all repeat it). */
export interface HeadSummary {
  number: string;
  type: BomType;
  description: string | null;
  group: string | null;
  serial: string | null;
  orgCode: string | null;
}

export const HEAD_KIND: Record<BomType, string> = { asset: "Asset", pm: "PM kit", other: "Tool" };

export function headSummaryOf(number: string, records: readonly BomDoc[]): HeadSummary {
  const first = (pick: (r: BomDoc) => string | null) => records.map(pick).find((v) => v !== null && v !== "") ?? null;
  return {
    number: records[0]?.asset_number ?? number,
    type: records[0]?.type ?? "other",
    description: first((r) => r.asset_description),
    group: first((r) => r.asset_group),
    serial: first((r) => r.asset_serial_number),
    orgCode: first((r) => r.org_code),
  };
}

export interface HeadLinesView {
  total: number;
  /** The lines read, shown over the pages and exported: all, or the first HEAD_LINES_MAX. */
  read: number;
  /** More lines than HEAD_LINES_MAX: only the first are shown and exported. */
  truncated: boolean;
  range: string;
  columns: { field: HeadLineField; label: string; sorted: SortDirection | null; sortHref: string }[];
  rows: (HeadLine & { key: string; itemHref: string | null })[];
  pager: PagerView;
  sort: LinesSort | null;
  exportHref: string;
}

/**
 * The page's table: one page of the sorted lines, each item linking to its page (which comes back
 * here), column links that sort ascending first and descending on the second click.
 */
export function buildHeadLinesView(input: { head: string; lines: readonly HeadLine[]; total: number; params: URLSearchParams }): HeadLinesView {
  const { head, lines, total, params } = input;
  const sort = parseLinesSort(params.get("sort"));
  const pages = totalPages(lines.length, HEAD_LINES_PAGE_SIZE);
  const rawPage = params.get("page");
  const page = Math.min(pages, rawPage && /^\d{1,7}$/.test(rawPage) && Number(rawPage) >= 1 ? Number(rawPage) : 1);
  const path = headLinesPath(head);
  const href = (next: { sort: LinesSort | null; page: number }) => {
    const out = new URLSearchParams(params);
    out.delete("sort");
    out.delete("page");
    const sortText = serializeLinesSort(next.sort);
    if (sortText) out.set("sort", sortText);
    if (next.page > 1) out.set("page", String(next.page));
    const search = out.toString();
    return search ? `${path}?${search}` : path;
  };
  const self = href({ sort, page });
  const start = (page - 1) * HEAD_LINES_PAGE_SIZE;
  const shown = sortLines(lines, sort).slice(start, start + HEAD_LINES_PAGE_SIZE);
  const exportParams = new URLSearchParams();
  const sortText = serializeLinesSort(sort);
  if (sortText) exportParams.set("sort", sortText);
  return {
    total,
    read: lines.length,
    truncated: total > lines.length,
    range: lines.length === 0 ? "0 of 0" : `${start + 1}-${start + shown.length} of ${total}`,
    columns: HEAD_LINE_COLUMNS.map((column) => {
      const sorted = sort?.field === column.field ? sort.direction : null;
      return { ...column, sorted, sortHref: href({ sort: { field: column.field, direction: sorted === "asc" ? "desc" : "asc" }, page: 1 }) };
    }),
    rows: shown.map((line, i) => ({
      ...line,
      key: `${start + i}-${line.item_number}`,
      itemHref: isLinkedItemKey(line.item_number) ? withBack(productPath(line.item_number), self) : null,
    })),
    pager: pagerView(page, pages, (p) => href({ sort, page: p })),
    sort,
    exportHref: `${path}/export.csv${exportParams.size > 0 ? `?${exportParams}` : ""}`,
  };
}
