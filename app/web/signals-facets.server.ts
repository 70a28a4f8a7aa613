import type { Filter } from "~/search/engine";
import { SEARCH_PATH } from "~/search/paths";
import type { SearchConfig } from "~/search/search-config";
import { parseSearchParams, type SearchState } from "~/search/state";

export interface FacetClick {
  facetName: string;
  facetValue: string;
  action: "include" | "exclude" | "remove";
  query: string;
}

const keyOf = (f: Filter) => JSON.stringify([f.type, f.field, f.value]);
/** The facet's key as the URL names it (`category` for `category_s`). */
const facetKey = (field: string) => field.replace(/^attribute_/, "").replace(/_[a-z]+$/, "");

/**
 * The facet click that led from the results page the browser was on (its `Referer`, which the
 * portal's `Referrer-Policy: same-origin` sends on every same-site navigation and data request)
 * to this one: the same search with exactly one filter added or removed. No parameter is added to
 * the URL contract for it, and it holds with and without JavaScript. A link that changes more, an
 * address typed or bookmarked (no same-site Referer), is no facet click.
 */
export function facetClickOf(request: Request, state: SearchState, config: SearchConfig): FacetClick | null {
  const referer = request.headers.get("Referer");
  if (!referer) return null;
  let previous: URL;
  try {
    previous = new URL(referer);
  } catch {
    return null;
  }
  const here = new URL(request.url);
  if (previous.host !== here.host || previous.pathname !== SEARCH_PATH) return null;
  const before = parseSearchParams(previous.searchParams, config);
  if (before.q !== state.q || before.within.join("\n") !== state.within.join("\n")) return null;
  const had = new Set(before.filters.map(keyOf));
  const has = new Set(state.filters.map(keyOf));
  const added = state.filters.filter((f) => !had.has(keyOf(f)));
  const removed = before.filters.filter((f) => !has.has(keyOf(f)));
  // Include → exclude of the same value is one click too (the facet's "exclude" link).
  const change = added.length === 1 && removed.length <= 1 ? added[0]! : added.length === 0 && removed.length === 1 ? removed[0]! : null;
  if (!change) return null;
  if (removed.length === 1 && added.length === 1 && (removed[0]!.field !== change.field || removed[0]!.value !== change.value)) return null;
  return {
    facetName: facetKey(change.field),
    facetValue: change.value,
    action: added.length === 1 ? change.type : "remove",
    query: state.q,
  };
}
