import { OPENING_NUMBER_FIELDS } from "../catalog-fields";
import type { Doc } from "../engine";
import type { SearchState } from "../state";
import { numberKey, parseQuery, partNumberKeyOf } from "./query";

/**
 * A search that is exactly one item's item number or manufacturer part number (typed, pasted or
 * scanned, then Enter) opens that item, whatever filters and sort the search box carries along: a
 * number names one item, which a filter kept from the last list must not hide (issue 29). Only a
 * first page without search-within jumps (a new query from the box resets both). `list=1` on the search URL (the item page's
 * "All results for …" link) shows the list instead; it is the only parameter this adds to the
 * URL contract, and a view parameter: it changes nothing in the results.
 */
export const LIST_PARAM = "list";

/** The part-number key of a state that may jump, or null. */
export function jumpKeyOf(state: SearchState, params: URLSearchParams): string | null {
  if (params.has(LIST_PARAM)) return null;
  if (state.page !== 1 || state.within.length > 0) return null;
  return partNumberKeyOf(parseQuery(state.q));
}

/** The one item among `docs` whose item or manufacturer part number has the key; null for none or several. */
export function jumpTarget(docs: readonly Doc[], key: string): Doc | null {
  const matching = docs.filter((doc) => OPENING_NUMBER_FIELDS.some((field) => typeof doc[field] === "string" && numberKey(doc[field]) === key));
  const ids = new Set(matching.map((doc) => doc.id));
  return ids.size === 1 ? matching[0]! : null;
}

/** The search URL that shows the list for a query that would jump. */
export function listHref(searchHref: string): string {
  return `${searchHref}${searchHref.includes("?") ? "&" : "?"}${LIST_PARAM}=1`;
}

/** The query of a search URL that shows the list (`list=1`), for the item page's "All results for …". */
export function listQueryOf(href: string): string | null {
  const url = new URL(href, "http://x");
  return url.searchParams.get(LIST_PARAM) === "1" ? (url.searchParams.get("q") ?? null) : null;
}

/** The most numbers one pasted list looks up: a picking list's worth, and a bounded page. */
export const MAX_NUMBER_LIST = 100;

/**
 * The part numbers of a query that is a pasted or scanned list of them (two or more, separated by
 * spaces, commas, semicolons or new lines, each a number as a single number would jump: with a
 * digit, not a word), in order and without repeats; null for any other query. Such a search lists
 * exactly those items and names the numbers not found (issue 36).
 */
export function numberListOf(state: SearchState, params: URLSearchParams): string[] | null {
  if (params.has(LIST_PARAM) || state.page !== 1 || state.within.length > 0) return null;
  const tokens = state.q.split(/[\s,;]+/).filter(Boolean);
  if (tokens.length < 2 || tokens.length > MAX_NUMBER_LIST) return null;
  if (!tokens.every((token) => !/^-|"/.test(token) && partNumberKeyOf(parseQuery(token)) !== null)) return null;
  const seen = new Set<string>();
  return tokens.filter((token) => {
    const key = numberKey(token);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
