/**
 * A search state as the engine's request: the one mapping, so that a results page, its counts, an
 * item's neighbours, a pick list and an export all ask the engine for the same search (its query,
 * search-within terms, filters and sort) and differ only in the rows they ask for.
 */
import type { CursorRequest, SearchRequest } from "./engine";
import type { SearchConfig } from "./search-config";
import type { SearchState } from "./state";

/** What chooses and orders a search's items, whatever is asked of them: a state, or a part of one. */
export type SearchQuery = Pick<SearchState, "q" | "within" | "filters" | "sort">;

// Named one by one, so that nothing else of a state (its page, its page size) travels to the engine.
function queryOf({ q, within, filters, sort }: SearchQuery): SearchQuery {
  return { q, within, filters, sort };
}

/** `rows` items of a search from `start` (0-based), without facets or highlights. */
export function pageRequestOf(state: SearchQuery, start: number, rows: number): SearchRequest {
  return { ...queryOf(state), start, rows, facetFields: [], highlight: false };
}

/** How many items a search finds: no rows, facets or highlights. */
export function countRequestOf(state: SearchQuery): SearchRequest {
  return pageRequestOf(state, 0, 0);
}

/** The results page a state shows: its page of rows, with the panel's facets and highlighted snippets. */
export function resultsRequestOf(state: SearchState, config: SearchConfig): SearchRequest {
  return { ...pageRequestOf(state, (state.page - 1) * state.rows, state.rows), facetFields: config.facetFields, highlight: true };
}

/** Every item of a search up to `limit`, in batches of `batchSize`, for an export's cursor. */
export function cursorRequestOf(state: SearchQuery, batchSize: number, limit: number): CursorRequest {
  return { ...queryOf(state), batchSize, limit };
}
