/**
 * The portal's paths (DESIGN.md "URL contract"), in one place: every link, redirect and form action
 * is built here or by the search-state codec, never spelled out.
 */
// Relative: the catalogue import (npm run catalog:import) loads this module without the `~` alias.
import { MAX_ITEM_KEY_LENGTH } from "../lib/limits";

export const HOME_PATH = "/crib-search";
export const SEARCH_PATH = "/crib-search/search";
export const SEARCH_EXPORT_PATH = "/crib-search/export.csv";
/** A search printed as a pick list (docs/decisions/027): the search's parameters, nothing else. */
export const PICK_LIST_PATH = "/crib-search/pick-list";
export const LOGIN_PATH = "/login";
export const LOGOUT_PATH = "/logout";
/** Where the identity provider sends the browser back after logout (its `post_logout_redirect_uri`). */
export const SIGNED_OUT_PATH = "/signed-out";
/** The portal's own support page: where Contact Support leads when no company site is configured. */
export const SUPPORT_PATH = "/support";

/** The portal's own API (DESIGN.md "Backend API") as its pages and the embeddable widgets call it. */
export const SEARCH_API_PATH = "/api/search";
export const SUGGESTIONS_API_PATH = "/api/suggestions";
export const SIGNALS_API_PATH = "/api/signals";

/** The type-ahead's request: at most `limit` suggestions for `prefix`. */
export const suggestionsApiHref = (prefix: string, limit: number) => `${SUGGESTIONS_API_PATH}?${new URLSearchParams({ q: prefix, limit: String(limit) })}`;

/** Path segment for an item number: slashes, spaces, `#`, `%` and unicode survive the round trip. */
export function itemPath(prefix: ItemPrefix, itemNumber: string): string {
  return `${prefix}/${encodeURIComponent(itemNumber)}`;
}

export type ItemPrefix = "/product" | "/where-used" | "/bom" | "/asset-bom" | "/pm-bom" | "/boms";

/**
 * An item number or product id a path may carry: at most MAX_ITEM_KEY_LENGTH characters and no
 * control characters. Anything else names no item, and the pages answer so without asking an engine.
 */
// eslint-disable-next-line no-control-regex
export const isItemKey = (text: string) => text.length <= MAX_ITEM_KEY_LENGTH && !/[\u0000-\u001f\u007f]/.test(text);

/** An item key a table's cell may link to: one that is not blank. */
export const isLinkedItemKey = (text: string) => isItemKey(text) && text.trim() !== "";

export const productPath = (id: string) => itemPath("/product", id);
export const whereUsedPath = (itemNumber: string) => itemPath("/where-used", itemNumber);
export const bomPath = (itemNumber: string) => itemPath("/bom", itemNumber);
/** The lines of the BOM an asset, PM kit or tool heads (decision 037): a page of its own, not an item's. */
export const headLinesPath = (head: string) => itemPath("/boms", head);

/** The CSV download beside an item's page (`/product/{id}/export.csv`, `/bom/{item}/export.csv`, …). */
export function exportCsvPath(prefix: ItemPrefix, itemNumber: string, params?: Record<string, string>): string {
  const query = params ? `?${new URLSearchParams(params)}` : "";
  return `${itemPath(prefix, itemNumber)}/export.csv${query}`;
}

/** True for a search results page's path (with its query), as kept in a `back` parameter. */
export function isSearchPath(path: string): boolean {
  return path === SEARCH_PATH || path.startsWith(`${SEARCH_PATH}?`);
}

export function withBack(path: string, back: string): string {
  return `${path}?${new URLSearchParams({ back }).toString()}`;
}

/** A search platform's query id as it may travel in a link: short, letters, digits, `-` and `_`. */
export function isQueryId(value: string): boolean {
  return /^[\w-]{1,100}$/.test(value);
}

/**
 * Detail page link that remembers the search it came from and the item's place in it. A link from
 * a results row says so (`via=result`, which makes the visit a result click for the usage signals)
 * and names the search platform's query id when there is one (`qid`).
 */
export function productLink(itemNumber: string, back: string, position?: number, fromResults?: { queryId?: string }): string {
  const params = new URLSearchParams({ back });
  if (position !== undefined) params.set("pos", String(position));
  if (fromResults) {
    params.set("via", "result");
    if (fromResults.queryId && isQueryId(fromResults.queryId)) params.set("qid", fromResults.queryId);
  }
  return `${productPath(itemNumber)}?${params.toString()}`;
}
