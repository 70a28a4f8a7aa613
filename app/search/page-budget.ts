/**
 * The pre-render size guard (DESIGN.md "Every request is bounded"): no HTML page or JSON answer
 * over 2 MB (tests/http/bounded-answers.test.ts). The search itself is bounded in the URL
 * (MAX_SEARCH_BYTES); what is left to bound is how many links repeat it. Each result row links to its item and its Where Used page,
 * both with the search as their way back (encoded once more), up to ROW_BACK_MAX_BYTES; the facet
 * panel, two links a value, gets what the rows leave, at most FACET_LINKS_BYTES_MAX, and lists the
 * most frequent values that fit, selected values first. bench:load measured why the bound is well
 * under 2 MB: a page of 1.2 MB took 350 ms of a worker under load (docs/benchmarks.md).
 */
import { MAX_FILTER_VALUE_LENGTH } from "./state";
import { SEARCH_PATH } from "./paths";

/** What the guard plans for, leaving room for the page's own markup and data. */
const PLANNED_BYTES = 1_500_000;

/** The facet panel's links at most, whatever the rows leave. */
export const FACET_LINKS_BYTES_MAX = 384 * 1024;

/**
 * A way back longer than this is not repeated in every row's two links: the rows take the search
 * without its filters and terms (or the search page) as their way back instead.
 */
export const ROW_BACK_MAX_BYTES = 1024;

/** The rows' way back: the page's own address when it is short, else a shorter search. */
export function rowBackOf(here: string, withoutFilters: () => string): string {
  if (here.length <= ROW_BACK_MAX_BYTES) return here;
  const shorter = withoutFilters();
  return shorter.length <= ROW_BACK_MAX_BYTES ? shorter : SEARCH_PATH;
}

/** Every facet keeps at least this many values, whatever the budget says. */
export const MIN_FACET_VALUES = 3;

/** Markup around a facet value's two links (list item, labels, count), and its value encoded. */
const VALUE_OVERHEAD_BYTES = 400;
/** A way back is the address encoded once more: `%` becomes `%25`. */
const BACK_GROWTH = 5 / 3;
/** The links of the page that repeat the search whatever the results (sort, pager, forms, data). */
const FIXED_COPIES = 60;

interface FacetValues<V> {
  values: V[];
}

/**
 * The facets with as many values as their links fit in what a page of `rows` results leaves when
 * each link is `linkBytes` long, shared equally between the facets. A value longer than a filter
 * may be is never listed (it could not be chosen); a selected value always is.
 */
export function boundFacetValues<V extends { value: string; selected: unknown }, F extends FacetValues<V>>(
  facets: F[],
  linkBytes: number,
  rows: number,
): F[] {
  const rowBytes = 2 * (Math.min(linkBytes, ROW_BACK_MAX_BYTES) * BACK_GROWTH + 300);
  const left = Math.min(FACET_LINKS_BYTES_MAX, PLANNED_BYTES - rows * rowBytes - FIXED_COPIES * linkBytes);
  const perValue = 2 * linkBytes + VALUE_OVERHEAD_BYTES;
  const share = Math.floor(Math.max(0, left) / perValue / Math.max(1, facets.length));
  const keep = Math.max(MIN_FACET_VALUES, share);
  return facets.map((facet) => {
    const usable = facet.values.filter((v) => v.selected || Array.from(v.value).length <= MAX_FILTER_VALUE_LENGTH);
    if (usable.length <= keep && usable.length === facet.values.length) return facet;
    const selected = usable.filter((v) => v.selected);
    const others = usable.filter((v) => !v.selected).slice(0, Math.max(0, keep - selected.length));
    // The order the view gave (selected first, then by count) is kept.
    const kept = new Set([...selected, ...others]);
    return { ...facet, values: usable.filter((v) => kept.has(v)) };
  });
}
