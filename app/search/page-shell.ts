/**
 * What the layout around a page shows of it: the header's search (its query and the refinement a
 * new query keeps) and the skip link's target. The loaders of the pages with a search of their own
 * or a way back to one return it as `shell`; the root reads it from the page's data (the plain
 * shell for any other page), and the header takes it as props.
 */
import { backChainOf } from "./back-chain";

export interface PageShell {
  /** The query of the search on screen, or of the search the page was opened from. */
  query: string;
  /** Filters, sort and page size that a new query keeps, as hidden inputs. */
  keep: [string, string][];
  /** Whether the header's box takes the focus when the page loads (not while the export dialog is open). */
  autoFocus: boolean;
  /** Where the skip link goes: the results on a search page, else the main content. */
  skipTarget: "#results-heading" | "#main";
}

/** What a new query from the header keeps of the search on screen (spec §4: not the page nor search-within). */
const KEPT_PARAMS = new Set(["f", "nf", "sort", "rows"]);

const kept = (params: Iterable<[string, string]>): [string, string][] => [...params].filter(([name]) => KEPT_PARAMS.has(name));

/** A page with no search of its own nor a way back to one. */
export const PLAIN_SHELL: PageShell = { query: "", keep: [], autoFocus: true, skipTarget: "#main" };

/** A results page: its query and parameters (the view's hidden inputs); the box waits while the export dialog is open. */
export function resultsShell(view: { query: string; hidden: [string, string][] }, dialogOpen: boolean): PageShell {
  return { query: view.query, keep: kept(view.hidden), autoFocus: !dialogOpen, skipTarget: "#results-heading" };
}

/** A page opened from a search, or from an item page opened from one: that search's query and refinement. */
export function shellFromBack(back: string): PageShell {
  const [first, second] = backChainOf(back, 2);
  const search = first?.page === "product" ? second : first;
  if (search?.page !== "search") return PLAIN_SHELL;
  return { ...PLAIN_SHELL, query: search.params.get("q") ?? "", keep: kept(search.params) };
}
