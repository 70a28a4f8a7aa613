/**
 * Builds everything the search page shows from the state, the engine's answer and the search
 * configuration: rows, columns, facets and pager, each with its ready-made link, except the links
 * of the facet values and the rows: the panel builds those from the page's parameters
 * (`filterToggleHref`, tested against the state transitions) and the table from `rowLinks`, since
 * two links for each of a hundred values and twenty rows were most of the page's data, written
 * into the page twice (once more for hydration). Pure, so the components only render props.
 */
import { pagerView, totalPages, type PagerView } from "./pager";
import { catalogField, SORT_MENU_FIELDS, type CatalogKey } from "./catalog-fields";
import { MAX_FILTERS } from "~/lib/limits";
import { HL_POST, HL_PRE, type Doc, type FacetResult, type FilterType, type SearchResponse } from "./engine";
import { belowMinimumOf, belowMinimumText, formatValue, isInactive, itemDescription, itemNumberOf, snippet } from "./field-format";
import { fieldKey, fieldLabel, fieldNameIn, isEmptyValue } from "./fields";
import { boundFacetValues, rowBackOf } from "./page-budget";
import { imageOf } from "./product-view";
import { resultsText } from "./result-count";
import type { SearchConfig } from "./search-config";
import {
  clearFilters,
  filterParamName,
  clearWithin,
  goToPage,
  removeFilter,
  removeWithin,
  searchHref,
  searchParamPairs,
  toggleColumnSort,
  MAX_FILTER_VALUE_LENGTH,
  MAX_SEARCH_BYTES,
  MAX_WITHIN_TERMS,
  PAGE_SIZES,
  searchBytes,
  type SearchState,
} from "./state";

/** A facet with more values than this gets its own search box (spec §2). */
export const FACET_SEARCH_THRESHOLD = 5;

export interface Column {
  field: string;
  /** The field's key (`status`): the cells' class, so the table needs no field table. */
  key: string;
  label: string;
  sorted: "asc" | "desc" | null;
  sortHref: string;
}

export interface ResultRow {
  id: string;
  itemNumber: string;
  inactive: boolean;
  image: string | null;
  /** Where the item is kept (its stock locator), which a card shows beside the quantity; null when unknown. */
  locator: string | null;
  /** "3 on hand, minimum 10" when its stock is below its minimum; null otherwise. */
  belowMinimum: string | null;
  /** Cell texts in the order of the columns; highlighted runs are between HL_PRE and HL_POST. */
  cells: string[];
}

/** What the rows' links are built from (`resultLinks`): the same for every row but the position. */
export interface ResultLinks {
  /** This search, for the item page's Back. */
  back: string;
  /** The position of the first row in the whole result list. */
  offset: number;
  /** The search platform's id of this search, for the usage signal of a click. */
  queryId: string | null;
}

export interface FacetValueView {
  value: string;
  count: number;
  selected: FilterType | null;
}

export interface FacetView {
  field: string;
  key: string;
  /** The facet's name in the URL's `f` and `nf` parameters. */
  param: string;
  label: string;
  values: FacetValueView[];
  searchable: boolean;
  /** The facet's search term taken from the URL (used without JavaScript). */
  term: string;
  open: boolean;
}

export interface SelectedFilterView {
  field: string;
  label: string;
  value: string;
  type: FilterType;
  removeHref: string;
}

export interface SortOption {
  value: string;
  label: string;
}

/** The Sort By menu (spec §9): relevance, then each of the registry's menu fields in both directions. */
export const SORT_OPTIONS: SortOption[] = [
  { value: "relevance", label: "Relevance" },
  ...SORT_MENU_FIELDS.flatMap(({ key, label, words: [asc, desc] }) => [
    { value: `${key} asc`, label: `${label} ${asc}` },
    { value: `${key} desc`, label: `${label} ${desc}` },
  ]),
];

export interface SearchView {
  query: string;
  total: number;
  heading: string;
  columns: Column[];
  /** The column only a card shows: where the item is kept (ResultRow.locator). */
  locatorColumn: { key: string; label: string };
  rows: ResultRow[];
  rowLinks: ResultLinks;
  facets: FacetView[];
  selected: SelectedFilterView[];
  clearFiltersHref: string | null;
  within: { term: string; removeHref: string }[];
  clearWithinHref: string | null;
  withinDisabledReason: string | null;
  /** Said when the search has as many filters as a search may: more are ignored. */
  filterLimitNotice: string | null;
  sortValue: string;
  /** The sort menu's choices: the components take them from the view, not from the domain. */
  sortOptions: SortOption[];
  pager: PagerView;
  rowsPerPage: number;
  pageSizes: readonly number[];
  /** Current parameters, for the hidden inputs of the page's GET forms. */
  hidden: [string, string][];
  /** What a printed page says on top: the search, its filters and search-within terms (the date is the browser's). */
  printLine: string;
}

function sortValueOf(state: SearchState): string {
  return state.sort ? `${fieldKey(state.sort.field)} ${state.sort.direction}` : "relevance";
}

function pager(state: SearchState, total: number, config: SearchConfig): PagerView {
  const pages = totalPages(total, state.rows);
  return pagerView(Math.min(state.page, pages), pages, (p) => searchHref(goToPage(state, p), config));
}

const MARKERS = new RegExp(`[${HL_PRE}${HL_POST}]`, "g");

/** A cell's text: the highlighted snippet when there is one, else the value with no markers. */
function cellText(doc: Doc, field: string, highlighting: SearchResponse["highlighting"]): string {
  const marked = highlighting[doc.id]?.[field]?.[0];
  const isDescription = fieldKey(field) === "item_description";
  const raw = marked ?? (isDescription ? itemDescription(doc) ?? null : null);
  if (raw !== null) return isDescription ? snippet(raw) : raw;
  return formatValue(doc[field]).replace(MARKERS, "");
}

const LOCATOR: CatalogKey = "stock_locator";

function locatorOf(doc: Doc): string | null {
  const name = fieldNameIn(doc, LOCATOR);
  return name === undefined || isEmptyValue(doc[name]) ? null : formatValue(doc[name]);
}

function resultFieldName(key: string, docs: Doc[], config: SearchConfig): string {
  // The configured facet/sort fields name the index field; fall back to the first doc that has it.
  const known = [...config.sortFields, ...config.allFacetFields].find((name) => fieldKey(name) === key);
  if (known) return known;
  for (const doc of docs) {
    const name = fieldNameIn(doc, key);
    if (name) return name;
  }
  return catalogField(key)?.name ?? `${key}_s`;
}

function orderFacetValues(values: FacetValueView[]): FacetValueView[] {
  return [...values].sort(
    (a, b) =>
      Number(b.selected === "include") - Number(a.selected === "include") ||
      b.count - a.count ||
      a.value.localeCompare(b.value),
  );
}

function columnsOf(state: SearchState, docs: Doc[], config: SearchConfig): Column[] {
  return config.resultFields
    .filter((key) => key !== "id")
    .map((key) => {
      const field = resultFieldName(key, docs, config);
      const sortable = config.sortFields.includes(field);
      return {
        field,
        key: fieldKey(field),
        label: fieldLabel(key),
        sorted: state.sort?.field === field ? state.sort.direction : null,
        sortHref: sortable ? searchHref(toggleColumnSort(state, field), config) : "",
      };
    });
}

/** The facet panel: each facet's values, the selected ones first and kept even without a bucket. */
function facetViewsOf(state: SearchState, facets: readonly FacetResult[], config: SearchConfig, facetTerms: Record<string, string> | undefined): FacetView[] {
  const activeByField = new Map<string, Map<string, FilterType>>();
  for (const f of state.filters) {
    const values = activeByField.get(f.field) ?? new Map<string, FilterType>();
    values.set(f.value, f.type);
    activeByField.set(f.field, values);
  }
  return facets.map((facet: FacetResult) => {
    const active = activeByField.get(facet.field) ?? new Map<string, FilterType>();
    const counted = new Map(facet.values.map((v) => [v.value, v.count]));
    // Selected values stay listed even when the engine returned no bucket for them (excluded ones).
    for (const value of active.keys()) if (!counted.has(value)) counted.set(value, 0);
    const values = [...counted].map(([value, count]) => ({ value, count, selected: active.get(value) ?? null }));
    const key = fieldKey(facet.field);
    return {
      field: facet.field,
      key,
      param: filterParamName(facet.field, config) ?? key,
      label: fieldLabel(key),
      values: orderFacetValues(values),
      searchable: values.length > FACET_SEARCH_THRESHOLD,
      term: facetTerms?.[key] ?? "",
      open: true,
    };
  });
}

/** Why search-within is off, or null when it is on. */
function withinDisabledReasonOf(state: SearchState, total: number): string | null {
  const realQuery = state.q !== "" && state.q !== "*:*";
  if (state.within.length >= MAX_WITHIN_TERMS) return `At most ${MAX_WITHIN_TERMS} search-within terms`;
  if (total === 0) return "No results to search within";
  return realQuery ? null : "Enter a search first";
}

/** The line a printed results page carries on top: the search, its filters and which rows the sheet holds. */
function printLineOf(heading: string, selected: SelectedFilterView[], within: string[], offset: number, shown: number, total: number): string {
  return [
    `Crib Search · ${heading}`,
    ...selected.map((f) => `${f.label} ${f.type === "include" ? "is" : "is not"} ${f.value}`),
    ...(within.length > 0 ? [`within: ${within.join(", ")}`] : []),
    // A sheet printed from the results page holds the rows on screen; it says so, and where the whole list is.
    ...(shown < total ? [`rows ${offset + 1}–${offset + shown} of ${total} (Print list prints them all)`] : []),
  ].join(" · ");
}

export function buildSearchView(input: {
  state: SearchState;
  response: Pick<SearchResponse, "docs" | "total" | "facets" | "highlighting">;
  config: SearchConfig;
  facetTerms?: Record<string, string>;
  /** The search platform's id of this search, when it has one. */
  queryId?: string;
  /** Origins item images may come from besides the portal (IMAGE_HOSTS). */
  imageHosts: readonly string[];
}): SearchView {
  const { state, response, config } = input;
  const here = searchHref(state, config);
  const query = state.q;
  const heading = resultsText(response.total, query);
  const columns = columnsOf(state, response.docs, config);

  const offset = (state.page - 1) * state.rows;
  // The item page's rule for its image, so that a row shows no image the item page would refuse.
  const rows: ResultRow[] = response.docs.map((doc) => ({
    id: doc.id,
    itemNumber: itemNumberOf(doc),
    inactive: isInactive(doc),
    image: imageOf(doc, input.imageHosts),
    locator: locatorOf(doc),
    belowMinimum: belowMinimumLine(doc),
    cells: columns.map((c) => cellText(doc, c.field, response.highlighting)),
  }));

  // The pre-render size guard: as many facet values as their links fit (page-budget.ts).
  const facets = boundFacetValues(facetViewsOf(state, response.facets, config, input.facetTerms), here.length, response.docs.length);

  const selected: SelectedFilterView[] = state.filters.map((f) => ({
    field: f.field,
    label: fieldLabel(fieldKey(f.field)),
    value: f.value,
    type: f.type,
    removeHref: searchHref(removeFilter(state, f), config),
  }));

  return {
    query,
    total: response.total,
    heading,
    columns,
    locatorColumn: { key: LOCATOR, label: fieldLabel(LOCATOR) },
    rows,
    rowLinks: { back: rowBackOf(here, () => searchHref({ ...state, filters: [], within: [], page: 1 }, config)), offset, queryId: input.queryId ?? null },
    facets,
    selected,
    clearFiltersHref: state.filters.length > 0 ? searchHref(clearFilters(state), config) : null,
    within: state.within.map((term) => ({ term, removeHref: searchHref(removeWithin(state, term), config) })),
    clearWithinHref: state.within.length > 0 ? searchHref(clearWithin(state), config) : null,
    withinDisabledReason: withinDisabledReasonOf(state, response.total),
    filterLimitNotice: filterLimitNotice(state, config),
    sortValue: sortValueOf(state),
    sortOptions: SORT_OPTIONS,
    pager: pager(state, response.total, config),
    rowsPerPage: state.rows,
    pageSizes: PAGE_SIZES,
    hidden: searchParamPairs(state, config),
    printLine: printLineOf(heading, selected, state.within, offset, rows.length, response.total),
  };
}

/**
 * What a search that found nothing under its filters says when the same query finds something
 * without them (issue 29): "0 in Category: Pumps" and a link "124 in all items" to the query alone.
 * A scan or a new query keeps the last list's filters (spec §4), so this is how a person learns
 * that the filters, not the catalogue, hid the item.
 */
export interface WiderSearchView {
  /** "0 in Category: Pumps, Status: not Inactive" */
  scope: string;
  /** "124 in all items" */
  label: string;
  href: string;
}

export function widerSearchOf(state: SearchState, config: SearchConfig, unfilteredTotal: number): WiderSearchView | null {
  if (state.filters.length === 0 || unfilteredTotal <= 0) return null;
  const filters = state.filters.map((f) => `${fieldLabel(fieldKey(f.field))}: ${f.type === "include" ? "" : "not "}${f.value}`);
  return {
    scope: `0 in ${filters.join(", ")}`,
    label: `${unfilteredTotal.toLocaleString("en-US")} in all items`,
    href: searchHref({ ...state, filters: [], page: 1 }, config),
  };
}

function belowMinimumLine(doc: Doc): string | null {
  const below = belowMinimumOf(doc);
  return below ? belowMinimumText(below) : null;
}

/** Said when a filter added now could be ignored: the search has as many, or as long, as it may. */
function filterLimitNotice(state: SearchState, config: SearchConfig): string | null {
  if (state.filters.length >= MAX_FILTERS) return `At most ${MAX_FILTERS} filters at once: remove one to add another.`;
  // Room for one more filter of the longest kind, each character encoded.
  if (searchBytes(state, config) > MAX_SEARCH_BYTES - 3 * MAX_FILTER_VALUE_LENGTH - 40) {
    return "This search is as long as a search may be: remove a filter or a term to add another.";
  }
  return null;
}
