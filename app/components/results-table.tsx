import { AppLink } from "./nav";
import { itemPath, productLink, withBack } from "~/search/paths";
import type { Column, ResultLinks, ResultRow, SearchView } from "~/search/search-view";
import { highlighted } from "./highlighted";
import { ProductImage } from "./product-image";

/** The column's sort state as an arrow; the header's `aria-sort` says it to assistive technology. */
export function SortIndicator({ sorted }: { sorted: Column["sorted"] }) {
  return (
    <span className={sorted ? "sort-indicator active" : "sort-indicator"} aria-hidden="true">
      {sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : "↕"}
    </span>
  );
}

/** A phone's card names these values in short, so status, quantity and locator share one line ("" names none: "Active" says what it is). */
const SHORT_LABELS: Record<string, string> = { status: "", quantity_on_hand: "Qty", stock_locator: "Loc" };

/**
 * The results as a table; on a narrow screen the stylesheet lays each row out as a card (item
 * number, description, status, quantity on hand and where it is kept, Where Used): cells carry
 * their column's key as a class and, where a card names the value, its label.
 */
export function ResultsTable({ columns, locator, rows, links }: { columns: Column[]; locator: SearchView["locatorColumn"]; rows: ResultRow[]; links: ResultLinks }) {
  const fromResults = { queryId: links.queryId ?? undefined };
  if (rows.length === 0) return <p className="muted">No results to display</p>;
  const cellProps = columns.map((c, i) => ({
    className: `c-${c.key}`,
    "data-label": i === 0 || c.key === "item_description" ? undefined : c.label,
    "data-short": SHORT_LABELS[c.key],
  }));
  return (
    <div className="table-scroll">
      <table className="results-table result-cards">
        <ResultsHead columns={columns} locator={locator} />
        <tbody>
          {rows.map((row, index) => (
            <tr key={row.id} className={row.inactive ? "inactive" : undefined}>
              <td className="col-image">
                <ProductImage src={row.image} label={row.itemNumber} />
              </td>
              {row.cells.map((text, i) => (
                <td key={columns[i]?.field ?? i} {...cellProps[i]}>
                  {i === 0 ? (
                    <>
                      <AppLink to={productLink(row.itemNumber, links.back, links.offset + index, fromResults)} className="row-link">
                        {highlighted(text)}
                        {row.inactive && <span className="badge-inactive"> (inactive item)</span>}
                      </AppLink>
                      {/* A space between the number and the badge, in text browsers and on a card's line too. */}
                      {row.belowMinimum && " "}
                      {row.belowMinimum && (
                        // The word at a glance, the figures for a pointer and a screen reader: the row shows the quantity already.
                        <span className="badge-low" title={row.belowMinimum}>
                          Below minimum<span className="visually-hidden">: {row.belowMinimum}</span>
                        </span>
                      )}
                    </>
                  ) : (
                    highlighted(text)
                  )}
                </td>
              ))}
              <td className={`c-${locator.key} card-only`} data-label="Locator" data-short={SHORT_LABELS[locator.key]}>
                {row.locator}
              </td>
              <td className="col-actions">
                <AppLink to={withBack(itemPath("/where-used", row.itemNumber), links.back)} className="button small secondary">
                  Where Used<span className="visually-hidden">{` for ${row.itemNumber}`}</span>
                </AppLink>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The table's header row: each column's label, a link that sorts by it. */
function ResultsHead({ columns, locator }: { columns: Column[]; locator: SearchView["locatorColumn"] }) {
  return (
    <thead>
      <tr>
        <th scope="col" className="col-image">
          <span className="visually-hidden">Image</span>
        </th>
        {columns.map((c) => (
          <th
            key={c.field}
            scope="col"
            aria-sort={c.sorted === "asc" ? "ascending" : c.sorted === "desc" ? "descending" : undefined}
          >
            {c.sortHref ? (
              <AppLink to={c.sortHref} className="sort-link" preventScrollReset>
                {c.label}
                <SortIndicator sorted={c.sorted} />
              </AppLink>
            ) : (
              c.label
            )}
          </th>
        ))}
        <th scope="col" className="card-only">
          {locator.label}
        </th>
        <th scope="col">
          <span className="visually-hidden">Actions</span>
        </th>
      </tr>
    </thead>
  );
}
