import { AppLink } from "./nav";

interface Neighbour {
  itemNumber: string;
  href: string;
}

/** Previous and next result of the search the item was opened from, with its place in it. */
export function ItemNav({ prev, next, position, total }: { prev: Neighbour | null; next: Neighbour | null; position: number | null; total: number | null }) {
  if (!prev && !next) return null;
  return (
    <nav className="item-nav" aria-label="Results">
      {prev ? (
        <AppLink to={prev.href} rel="prev" className="button secondary small">
          ← Previous: {prev.itemNumber}
        </AppLink>
      ) : (
        <span />
      )}
      {position !== null && total !== null && (
        <span className="muted small">
          Result {position + 1} of {total}
        </span>
      )}
      {next ? (
        <AppLink to={next.href} rel="next" className="button secondary small">
          Next: {next.itemNumber} →
        </AppLink>
      ) : (
        <span />
      )}
    </nav>
  );
}
