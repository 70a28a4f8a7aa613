/**
 * Sections of the BOM and Where Used pages: each section pages and sorts on its own through its
 * own URL parameters (`asset-page`, `asset-sort`, …), so sections move independently and every
 * state is a link. Pure: the routes pass params in and get ready-made links out.
 */
import type { BomDoc, BomResponse, BomSortField, BomType, SortDirection } from "./engine";
import { BOM_FIELDS } from "./catalog-fields";
import { BOM_SORT_FIELDS } from "./engine";
import { pagerView, totalPages as pagesOf, type PagerView } from "./pager";
import { headLinesPath, isLinkedItemKey, productPath, withBack } from "./paths";

export interface BomColumn {
  field: BomSortField;
  label: string;
  /** Cells of this column link to the page of their number: the item's, or the lines of the BOM it heads. */
  linksTo?: "item" | "head";
}

const columnsOf = (links: Partial<Record<BomSortField, BomColumn["linksTo"]>>): BomColumn[] =>
  BOM_FIELDS.map(({ name, label }) => ({ field: name, label, ...(links[name] ? { linksTo: links[name] } : {}) }));

/**
 * Where Used and the BOM pages list one component's BOM records (the BOM pages without the
 * quantity, as the spec has them); each asset number leads to the lines of the BOM it heads
 * (`/boms/{head}`, decision 037). Where Used names its item once, in its heading, not on every row
 * (issue 36, point 9; its CSV keeps the column, so that a file says what it holds).
 */
export const WHERE_USED_COLUMNS: BomColumn[] = columnsOf({ asset_number: "head" }).filter((c) => c.field !== "item_number");
export const BOM_TABLE_COLUMNS: BomColumn[] = columnsOf({ asset_number: "head" }).filter((c) => c.field !== "quantity");

export const BOM_PAGE_SIZE = 20;
export const WHERE_USED_PAGE_SIZE = 5;
/** A section's page sizes (`asset-rows`): the Where Used default and the spec's search page sizes. */
export const SECTION_PAGE_SIZES = [5, 20, 50, 100] as const;

/**
 * The Where Used sections' sort choices (issue 29: the spec's lone "Relevance" sorted nothing), the
 * first the default: by asset, the BOMs a technician goes through. Not by item number: every row
 * is the same item.
 */
export const WHERE_USED_SORTS: { value: string; label: string }[] = (
  [
    ["asset_number", "asc", " A-Z"],
    ["asset_number", "desc", " Z-A"],
    ["org_code", "asc", " A-Z"],
    ["asset_group", "asc", " A-Z"],
    ["quantity", "desc", ", most first"],
  ] as const
).map(([field, direction, order]) => ({
  // The field's label as the table heads it (catalog-fields.ts), and the order in words.
  value: `${field} ${direction}`,
  label: `${BOM_FIELDS.find((f) => f.name === field)!.label}${order}`,
}));

/** A section's page size from `{prefix}-rows`, or the section's own. */
export function sectionRowsOf(params: URLSearchParams, prefix: string, fallback: number): number {
  const rows = Number(params.get(`${prefix}-rows`));
  return (SECTION_PAGE_SIZES as readonly number[]).includes(rows) ? rows : fallback;
}

/**
 * What a section's sort and page-size form needs: its parameters' names, their values now, and the
 * page's other parameters as hidden inputs (a new sort or size starts at the first page).
 */
export function sectionControlsOf(params: URLSearchParams, prefix: string, state: SectionState, rows: number) {
  const own = new Set([`${prefix}-sort`, `${prefix}-rows`, `${prefix}-page`]);
  return {
    sortParam: `${prefix}-sort`,
    sortValue: state.sort ? `${state.sort.field} ${state.sort.direction}` : "",
    rowsParam: `${prefix}-rows`,
    rows,
    pageSizes: [...SECTION_PAGE_SIZES],
    hidden: [...params].filter(([name]) => !own.has(name)),
  };
}

export interface SectionSort {
  field: BomSortField;
  direction: SortDirection;
}

export interface SectionState {
  page: number;
  sort: SectionSort | null;
}

export function parseSectionState(params: URLSearchParams, prefix: string, defaultSort: SectionSort | null): SectionState {
  const rawPage = params.get(`${prefix}-page`);
  const page = rawPage && /^\d{1,7}$/.test(rawPage) && Number(rawPage) >= 1 ? Number(rawPage) : 1;
  const match = /^(\w+) (asc|desc)$/.exec(params.get(`${prefix}-sort`)?.trim() ?? "");
  const field = match?.[1] as BomSortField | undefined;
  const sort =
    match && field && BOM_SORT_FIELDS.includes(field) ? { field, direction: match[2] as SortDirection } : defaultSort;
  return { page, sort };
}

function sameSort(a: SectionSort | null, b: SectionSort | null): boolean {
  return a?.field === b?.field && a?.direction === b?.direction;
}

/** The page's URL with one section's state replaced; defaults are left out. */
function sectionHref(
  path: string,
  params: URLSearchParams,
  prefix: string,
  next: SectionState,
  defaultSort: SectionSort | null,
): string {
  const out = new URLSearchParams(params);
  out.delete(`${prefix}-page`);
  out.delete(`${prefix}-sort`);
  if (next.sort && !sameSort(next.sort, defaultSort)) out.set(`${prefix}-sort`, `${next.sort.field} ${next.sort.direction}`);
  if (next.page > 1) out.set(`${prefix}-page`, String(next.page));
  const search = out.toString();
  return search ? `${path}?${search}` : path;
}

export interface BomSectionView {
  prefix: string;
  type: BomType;
  title: string;
  total: number;
  range: string;
  columns: (BomColumn & { sorted: SortDirection | null; sortHref: string })[];
  /** Each record, with the links of its linking columns' cells (field → path). */
  rows: (BomDoc & { key: string; hrefs: Partial<Record<BomSortField, string>> })[];
  pager: PagerView;
  /** Other parameters of the page, for the jump-to form. */
  hidden: [string, string][];
  pageParam: string;
}

/** The links of a record's cells, each remembering the page it is on (`back`). */
function cellLinks(columns: BomColumn[], doc: BomDoc, back: string): Partial<Record<BomSortField, string>> {
  const hrefs: Partial<Record<BomSortField, string>> = {};
  for (const { field, linksTo } of columns) {
    const value = doc[field];
    if (!linksTo || typeof value !== "string" || !isLinkedItemKey(value)) continue;
    hrefs[field] = withBack(linksTo === "item" ? productPath(value) : headLinesPath(value), back);
  }
  return hrefs;
}

function rangeLabel(start: number, shown: number, total: number): string {
  if (total === 0) return "0 of 0";
  return `${start + 1}-${start + shown} of ${total}`;
}

export function buildBomSection(input: {
  prefix: string;
  type: BomType;
  title: string;
  response: BomResponse;
  state: SectionState;
  pageSize: number;
  columns: BomColumn[];
  path: string;
  params: URLSearchParams;
  defaultSort: SectionSort | null;
}): BomSectionView {
  const { prefix, state, pageSize, response, path, params, defaultSort } = input;
  const totalPages = pagesOf(response.total, pageSize);
  const page = Math.min(state.page, totalPages);
  const href = (next: SectionState) => sectionHref(path, params, prefix, next, defaultSort);
  const pageHref = (p: number) => href({ ...state, page: p });
  const start = (page - 1) * pageSize;
  return {
    prefix,
    type: input.type,
    title: input.title,
    total: response.total,
    range: rangeLabel(start, response.docs.length, response.total),
    columns: input.columns.map((column) => {
      const sorted = state.sort?.field === column.field ? state.sort.direction : null;
      // A column sorts ascending first; the same ascending column again sorts descending.
      const direction: SortDirection = sorted === "asc" ? "desc" : "asc";
      return { ...column, sorted, sortHref: href({ page: 1, sort: { field: column.field, direction } }) };
    }),
    rows: response.docs.map((doc, i) => ({ ...doc, key: `${doc.id}-${i}`, hrefs: cellLinks(input.columns, doc, href({ ...state, page })) })),
    pager: pagerView(page, totalPages, pageHref),
    hidden: [...params].filter(([name]) => name !== `${prefix}-page`),
    pageParam: `${prefix}-page`,
  };
}

/** Where Used's order until a person picks another: by asset, the first of WHERE_USED_SORTS. */
export const WHERE_USED_DEFAULT_SORT: SectionSort = { field: "asset_number", direction: "asc" };

/**
 * A BOM or Where Used page with every row of each section on one page, for printing (`print=all`):
 * up to as many rows as a section's export holds.
 */
export const PRINT_ALL = { param: "print", value: "all", rows: 1000 } as const;

/** Whether the page is asked for with every row (`print=all`). */
export function printsAll(params: URLSearchParams): boolean {
  return params.get(PRINT_ALL.param) === PRINT_ALL.value;
}
