/**
 * The pager of every paged list (search results, BOM sections): which page numbers to show and
 * their links, for the one Pager component.
 */

export type PageLink = { kind: "page"; page: number; href: string; current: boolean } | { kind: "gap"; key: string };

export interface PagerView {
  page: number;
  totalPages: number;
  first: string | null;
  prev: string | null;
  next: string | null;
  last: string | null;
  links: PageLink[];
}

export function totalPages(total: number, rows: number): number {
  return Math.max(1, Math.ceil(total / rows));
}

/** Up to 5 page numbers around the current one, with first and last and gaps between. */
export function pageWindow(page: number, pages: number, width = 5): (number | "gap")[] {
  let start = Math.max(1, page - Math.floor(width / 2));
  const end = Math.min(pages, start + width - 1);
  start = Math.max(1, end - width + 1);
  const out: (number | "gap")[] = [];
  if (start > 1) out.push(1);
  if (start > 2) out.push("gap");
  for (let p = start; p <= end; p++) out.push(p);
  if (end < pages - 1) out.push("gap");
  if (end < pages) out.push(pages);
  return out;
}

/** The pager of `page` (already within 1…pages), each link built by `href`. */
export function pagerView(page: number, pages: number, href: (page: number) => string): PagerView {
  return {
    page,
    totalPages: pages,
    first: page > 1 ? href(1) : null,
    prev: page > 1 ? href(page - 1) : null,
    next: page < pages ? href(page + 1) : null,
    last: page < pages ? href(pages) : null,
    links: pageWindow(page, pages).map((p, i) =>
      p === "gap" ? { kind: "gap", key: `gap-${i}` } : { kind: "page", page: p, href: href(p), current: p === page },
    ),
  };
}
