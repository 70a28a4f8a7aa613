import { MAX_FILTERS } from "~/lib/limits";
import type { Filter, FilterType, Sort, SortDirection } from "./engine";
import { fieldKey, resolveFacetField } from "./fields";
import type { SearchConfig } from "./search-config";
import { SEARCH_PATH } from "./paths";

/**
 * The search page's state and its URL encoding (DESIGN.md "URL contract"). The codec is lenient and
 * symmetric: `parseSearchParams(serializeSearchState(s))` deep-equals every valid `s`, and
 * serialising a parsed URL gives the canonical form, which parses to the same state.
 */

export const PAGE_SIZES = [20, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_ROWS: PageSize = 20;
export const MAX_QUERY_LENGTH = 500;
export const MAX_WITHIN_TERMS = 5;
/** A filter's value is at most this long (no facet value comes near it); how many there may be is MAX_FILTERS. */
export const MAX_FILTER_VALUE_LENGTH = 200;
/**
 * The page's size bound (DESIGN.md "Every request is bounded"): every link repeats the search, so
 * its query, filters and search-within terms take at most this many bytes in a URL in all. What a
 * URL has past it (the last filters, then the last terms) is ignored, as filters past the 20th are.
 */
export const MAX_SEARCH_BYTES = 3072;
/** Results past this place are never asked for: a bookmarked page beyond them goes to the last page. */
export const MAX_START = 1_000_000;

export interface SearchState {
  /** Trimmed; '' means every item (also for `*:*`); at most 500 characters. */
  q: string;
  /** 1-based. */
  page: number;
  rows: PageSize;
  /** null: relevance. */
  sort: Sort;
  /**
   * Full index field names. At most one filter per field and value; include filters come before
   * exclude filters, each in the order they were added (the URL lists all `f` before all `nf`).
   */
  filters: Filter[];
  /** At most 5, trimmed, non-blank, no duplicates. */
  within: string[];
}

// Marked pure, so a bundle that does not use it (the browser's, which only toggles filters) leaves it out.
export const EMPTY_STATE: SearchState = /* @__PURE__ */ Object.freeze({
  q: "",
  page: 1,
  rows: DEFAULT_ROWS,
  sort: null,
  filters: /* @__PURE__ */ Object.freeze([]) as unknown as Filter[],
  within: /* @__PURE__ */ Object.freeze([]) as unknown as string[],
});

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

// NUL is stripped because databases and C libraries end strings at it; a lone surrogate cannot be
// percent-encoded, so the URL would carry U+FFFD and the state would not survive a round trip.
function cleanText(text: string): string {
  return text.replaceAll("\0", "").replace(LONE_SURROGATE, "\uFFFD");
}

function cutTrimmed(text: string, max: number): string {
  const trimmed = cleanText(text).trim();
  // A text of at most `max` UTF-16 units has at most `max` characters.
  if (trimmed.length <= max) return trimmed;
  const chars = Array.from(trimmed);
  return chars.length <= max ? trimmed : chars.slice(0, max).join("").trimEnd();
}

/**
 * The canonical query text: trimmed, cut to 500 characters, '' for match-all. A query whose
 * characters all take several bytes in a URL is cut to MAX_SEARCH_BYTES too.
 */
export function normalizeQuery(q: string): string {
  const text = cutToUrlBytes(cutTrimmed(q, MAX_QUERY_LENGTH), MAX_SEARCH_BYTES);
  return text === "*:*" ? "" : text;
}

/** The text cut, between characters, to what takes at most `max` bytes as a URL parameter's value. */
function cutToUrlBytes(text: string, max: number): string {
  // Each UTF-16 unit takes at most 9 bytes encoded (a 3-byte character as %XX%XX%XX).
  if (text.length * 9 <= max) return text;
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    bytes += urlBytes(char.codePointAt(0)!);
    if (bytes > max) return text.slice(0, end).trimEnd();
    end += char.length;
  }
  return text;
}

/** The bytes one character takes in a form-encoded value (URLSearchParams): `%XX` a UTF-8 byte. */
function urlBytes(codePoint: number): number {
  if (codePoint < 0x80) return /[A-Za-z0-9*\-._ ]/.test(String.fromCharCode(codePoint)) ? 1 : 3;
  return codePoint < 0x800 ? 6 : codePoint < 0x10000 ? 9 : 12;
}

// Not in the URL contract: a cap like q's keeps five search-within terms from growing unbounded.
function normalizeWithinTerm(term: string): string {
  return cutTrimmed(term, MAX_QUERY_LENGTH);
}

function normalizeWithin(terms: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of terms) {
    if (out.length >= MAX_WITHIN_TERMS) break;
    const term = normalizeWithinTerm(raw);
    // "Pump" and "pump" search the same: a term differing only in case is a duplicate.
    if (term !== "" && !out.some((t) => t.toLowerCase() === term.toLowerCase())) out.push(term);
  }
  return out;
}

function toPageSize(value: unknown): PageSize {
  return PAGE_SIZES.find((size) => size === value) ?? DEFAULT_ROWS;
}

function toPage(value: number): number {
  return Number.isSafeInteger(value) && value >= 1 ? value : 1;
}

function parsePage(raw: string | null): number {
  const text = raw?.trim() ?? "";
  return /^\d+$/.test(text) ? toPage(Number(text)) : 1;
}

function parseRows(raw: string | null): PageSize {
  const text = raw?.trim() ?? "";
  return /^\d+$/.test(text) ? toPageSize(Number(text)) : DEFAULT_ROWS;
}

/** A sort field named by its full index name or its key (`org_code`); null when not sortable. */
export function resolveSortField(keyOrName: string, config: SearchConfig): string | null {
  if (config.sortFields.includes(keyOrName)) return keyOrName;
  return config.sortFields.find((field) => fieldKey(field) === keyOrName) ?? null;
}

function parseSort(raw: string | null, config: SearchConfig): Sort {
  const parts = (raw ?? "").trim().split(/\s+/);
  if (parts.length !== 2) return null;
  const [name = "", dir = ""] = parts;
  const direction = dir.toLowerCase();
  if (direction !== "asc" && direction !== "desc") return null;
  const field = resolveSortField(name, config);
  return field === null ? null : { field, direction };
}

// The shortest name that resolves back to the same field: the key unless two fields share it.
function shortName(field: string, resolve: (name: string) => string | null): string | null {
  const key = fieldKey(field);
  if (resolve(key) === field) return key;
  return resolve(field) === field ? field : null;
}

function sameTarget(a: Filter, b: Filter): boolean {
  return a.field === b.field && a.value === b.value;
}

function canonicalFilters(filters: readonly Filter[]): Filter[] {
  return [...filters.filter((f) => f.type === "include"), ...filters.filter((f) => f.type === "exclude")];
}

function cleanFilter(filter: Filter): Filter | null {
  const value = cleanText(filter.value);
  return value === "" || Array.from(value).length > MAX_FILTER_VALUE_LENGTH ? null : { field: filter.field, value, type: filter.type };
}

/**
 * Adds filters one after the other: an identical filter is ignored, the other type on the same
 * value replaces the earlier one. Keyed so that a URL with thousands of filters stays linear.
 */
function mergeFilters(base: readonly Filter[], added: Iterable<Filter>): Filter[] {
  const byTarget = new Map<string, Filter>();
  // Field names never hold a NUL, so the first one ends the field.
  const target = (f: Filter) => `${f.field}\u0000${f.value}`;
  for (const filter of [...base, ...added]) {
    const key = target(filter);
    if (byTarget.get(key)?.type === filter.type) continue;
    // Past the limit only a filter already there may change its type.
    if (byTarget.size >= MAX_FILTERS && !byTarget.has(key)) continue;
    byTarget.delete(key);
    byTarget.set(key, filter);
  }
  return canonicalFilters([...byTarget.values()]);
}

function parseFilter(raw: string, type: Filter["type"], config: SearchConfig): Filter | null {
  const colon = raw.indexOf(":");
  if (colon < 0) return null;
  const field = resolveFacetField(cleanText(raw.slice(0, colon)).trim(), config);
  if (field === null) return null;
  return cleanFilter({ field, value: raw.slice(colon + 1), type });
}

/** The last page whose results start within MAX_START. */
function lastAskablePage(rows: number): number {
  return Math.floor(MAX_START / rows) + 1;
}

export function parseSearchParams(params: URLSearchParams, config: SearchConfig): SearchState {
  const rows = parseRows(params.get("rows"));
  const parsed: Filter[] = [];
  // In URL order, so that of two contradicting filters on one value the later wins, as when added.
  for (const [name, raw] of params) {
    if (name !== "f" && name !== "nf") continue;
    const filter = parseFilter(raw, name === "f" ? "include" : "exclude", config);
    if (filter) parsed.push(filter);
  }
  return withinSearchBytes(
    {
      q: normalizeQuery(params.get("q") ?? ""),
      page: Math.min(parsePage(params.get("page")), lastAskablePage(rows)),
      rows,
      sort: parseSort(params.get("sort"), config),
      filters: mergeFilters([], parsed),
      within: normalizeWithin(params.getAll("within")),
    },
    config,
  );
}

// --- The search's size in a URL (MAX_SEARCH_BYTES) ---

/** The bytes the search's query, filters and terms take in a URL. */
export function searchBytes(state: SearchState, config: SearchConfig): number {
  const params = serializeSearchState({ ...state, page: 1, rows: DEFAULT_ROWS, sort: null }, config);
  return params.toString().length;
}

/** The state without the filters, then the terms, that take it past MAX_SEARCH_BYTES. */
function withinSearchBytes(state: SearchState, config: SearchConfig): SearchState {
  if (searchBytes(state, config) <= MAX_SEARCH_BYTES) return state;
  const filters = [...state.filters];
  const within = [...state.within];
  const fits = () => searchBytes({ ...state, filters, within }, config) <= MAX_SEARCH_BYTES;
  while (filters.length > 0 && !fits()) filters.pop();
  while (within.length > 0 && !fits()) within.pop();
  return { ...state, filters, within };
}

/**
 * The canonical parameters, in the order q, f, nf, within, sort, rows, page, with defaults left
 * out. Filters and sorts on fields the configuration does not know are left out too.
 */
export function serializeSearchState(state: SearchState, config: SearchConfig): URLSearchParams {
  const params = new URLSearchParams();
  const q = normalizeQuery(state.q);
  if (q !== "") params.append("q", q);

  // Lenient with fields named by their key: they are written as the field they resolve to.
  const facet = (name: string) => resolveFacetField(name, config);
  const filters: Filter[] = [];
  for (const raw of state.filters) {
    const field = facet(raw.field);
    const filter = field === null ? null : cleanFilter({ ...raw, field });
    if (filter) filters.push(filter);
  }
  for (const filter of mergeFilters([], filters)) {
    const name = shortName(filter.field, facet);
    if (name !== null) params.append(filter.type === "include" ? "f" : "nf", `${name}:${filter.value}`);
  }

  for (const term of normalizeWithin(state.within)) params.append("within", term);

  const sortField = state.sort ? resolveSortField(state.sort.field, config) : null;
  if (state.sort && sortField !== null) {
    const name = shortName(sortField, (n) => resolveSortField(n, config));
    if (name !== null) params.append("sort", `${name} ${state.sort.direction}`);
  }
  const rows = toPageSize(state.rows);
  if (rows !== DEFAULT_ROWS) params.append("rows", String(rows));
  const page = toPage(state.page);
  if (page !== 1) params.append("page", String(page));
  return params;
}

/** The canonical parameters as name and value pairs, for the hidden inputs of a page's forms. */
export function searchParamPairs(state: SearchState, config: SearchConfig): [string, string][] {
  return [...serializeSearchState(state, config)];
}

export function searchHref(state: SearchState, config: SearchConfig, path = SEARCH_PATH): string {
  const query = serializeSearchState(state, config).toString();
  return query === "" ? path : `${path}?${query}`;
}

/** A facet field's name in the URL (`f=<name>:<value>`): its key, or its full name when two share the key. */
export function filterParamName(field: string, config: SearchConfig): string | null {
  return shortName(field, (name) => resolveFacetField(name, config));
}

/**
 * The link that toggles one facet value of the current search, built from the search's canonical
 * parameters (as `serializeSearchState` writes them) without its state or the configuration: a page
 * carries its facet values without a pair of ready-made links each, and renders them. The same
 * href as `searchHref` of `removeFilter` (the value has that type already) or `addFilter` (tested
 * against both): the value's other type is dropped, the new filter goes after the last of its kind,
 * the page goes back to the first.
 */
export function filterToggleHref(
  params: readonly (readonly [string, string])[],
  name: string,
  value: string,
  selected: FilterType | null,
  type: FilterType,
  path = SEARCH_PATH,
): string {
  const clean = cleanText(value);
  const entry = `${name}:${clean}`;
  const out = params.filter(([n, v]) => n !== "page" && !((n === "f" || n === "nf") && v === entry));
  if (selected !== type && clean !== "") {
    const own = type === "include" ? "f" : "nf";
    let at = 0;
    out.forEach(([n], i) => {
      if (n === "q" || n === "f" || n === own) at = i + 1;
    });
    out.splice(at, 0, [own, entry]);
  }
  const query = new URLSearchParams(out as [string, string][]).toString();
  return query === "" ? path : `${path}?${query}`;
}

// Transitions: each returns a new state; all but goToPage go back to page 1.

function reset(state: SearchState, change: Partial<SearchState>): SearchState {
  return { ...state, ...change, page: 1 };
}

/** A submitted query always starts afresh: page 1 and no search-within terms. */
export function withQuery(state: SearchState, q: string): SearchState {
  return reset(state, { q: normalizeQuery(q), within: [] });
}

/** Facet click: the same filter again removes it; the other type on the same value replaces it. */
export function toggleFilter(state: SearchState, filter: Filter): SearchState {
  const existing = state.filters.find((f) => sameTarget(f, filter));
  if (existing?.type === filter.type) return removeFilter(state, filter);
  return addFilter(state, filter);
}

/** An identical filter is ignored; the other type on the same value is replaced. */
export function addFilter(state: SearchState, filter: Filter): SearchState {
  const clean = cleanFilter(filter);
  return reset(state, { filters: mergeFilters(state.filters, clean ? [clean] : []) });
}

/** Removes the filter on that field and value, whichever its type. */
export function removeFilter(state: SearchState, filter: Pick<Filter, "field" | "value">): SearchState {
  return reset(state, { filters: state.filters.filter((f) => !(f.field === filter.field && f.value === filter.value)) });
}

/** Removes every filter, or only those on `field`. */
export function clearFilters(state: SearchState, field?: string): SearchState {
  return reset(state, { filters: field === undefined ? [] : state.filters.filter((f) => f.field !== field) });
}

export function withSort(state: SearchState, sort: Sort): SearchState {
  return reset(state, { sort: sort ? { field: sort.field, direction: sort.direction } : null });
}

/** Column header click: the sorted column flips direction; any other column starts ascending. */
export function toggleColumnSort(state: SearchState, field: string): SearchState {
  const direction: SortDirection = state.sort?.field === field && state.sort.direction === "asc" ? "desc" : "asc";
  return withSort(state, { field, direction });
}

/** Anything but 20, 50 or 100 becomes 20. */
export function withRows(state: SearchState, rows: number): SearchState {
  return reset(state, { rows: toPageSize(rows) });
}

/** Keeps everything else; a page that is not a positive integer becomes 1, one past MAX_START the last that can be asked. */
export function goToPage(state: SearchState, page: number): SearchState {
  return { ...state, page: Math.min(toPage(page), lastAskablePage(state.rows)) };
}

/** Blank and duplicate terms, and terms beyond the fifth, are ignored. */
export function addWithin(state: SearchState, term: string): SearchState {
  return reset(state, { within: normalizeWithin([...state.within, term]) });
}

export function removeWithin(state: SearchState, term: string): SearchState {
  const target = normalizeWithinTerm(term);
  return reset(state, { within: state.within.filter((t) => t !== target) });
}

export function clearWithin(state: SearchState): SearchState {
  return reset(state, { within: [] });
}
