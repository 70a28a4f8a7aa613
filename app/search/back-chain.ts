/**
 * The way back of a page, as a typed chain: the page a `back` parameter names, the page that one
 * was opened from (its own `back`), and so on, up to a search. The BOM, Where Used and item pages,
 * their breadcrumbs and the header's search read it from here, rather than each matching path
 * prefixes and parsing nested `back`s on their own.
 */
import { safePath } from "../lib/safe-path";
import { HOME_PATH, isSearchPath } from "./paths";

/** The kinds of page a way back may name: a search, or a page that keeps its own way back. */
export type BackPage = "search" | "product" | "where-used" | "bom" | "asset-bom" | "pm-bom" | "boms";

export interface BackStep {
  page: BackPage;
  /** The same-site path, as written in the `back` parameter. */
  href: string;
  /** Its query parameters: a search's, or the page's (with its own `back`). */
  params: URLSearchParams;
  /** The item, number or head the path names (its last segment, decoded); empty for a search. */
  subject: string;
}

/** Pages that keep the way back to where they were opened from in their own `back`, with their Back button's text. */
const PAGES_WITH_BACK: readonly { page: Exclude<BackPage, "search">; prefix: string; label: string }[] = [
  { page: "product", prefix: "/product/", label: "← Back to item" },
  { page: "where-used", prefix: "/where-used/", label: "← Back to Where Used" },
  { page: "bom", prefix: "/bom/", label: "← Back to BOM" },
  { page: "asset-bom", prefix: "/asset-bom/", label: "← Back to BOM" },
  { page: "pm-bom", prefix: "/pm-bom/", label: "← Back to BOM" },
  { page: "boms", prefix: "/boms/", label: "← Back to BOM lines" },
];

/** A path segment as text; a malformed escape (`%`, `%E0%A4`) is shown as written rather than failing. */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function stepOf(href: string): BackStep | null {
  const url = new URL(href, "http://x");
  if (isSearchPath(href)) return { page: "search", href, params: url.searchParams, subject: "" };
  const kind = PAGES_WITH_BACK.find((p) => href.startsWith(p.prefix));
  return kind ? { page: kind.page, href, params: url.searchParams, subject: decodedSegment(url.pathname.slice(kind.prefix.length)) } : null;
}

/**
 * The chain a same-site `back` path starts: at most `length` steps, ending at the first search or
 * at a path that is neither a search nor a page with a way back.
 */
export function backChainOf(back: string, length = 5): BackStep[] {
  const chain: BackStep[] = [];
  let href = back;
  while (chain.length < length) {
    const step = stepOf(href);
    if (!step) break;
    chain.push(step);
    if (step.page === "search") break;
    href = safePath(step.params.get("back"), "");
  }
  return chain;
}

/**
 * Where "← Back to Search" leads from a page whose way back is `back`: that search, the search the
 * page before was opened from (an item page, a Where Used page, a BOM page; a few steps at most),
 * or the search home; never another kind of page.
 */
export function searchBackOf(back: string): string {
  return backChainOf(back).find((step) => step.page === "search")?.href ?? HOME_PATH;
}

/** The page a BOM page was opened from, other than a search (an item, a Where Used page), for its second way back. */
export function pageBackOf(back: string): { href: string; label: string } | null {
  const first = backChainOf(back, 1)[0];
  const kind = first && PAGES_WITH_BACK.find((p) => p.page === first.page);
  return kind ? { href: back, label: kind.label } : null;
}
