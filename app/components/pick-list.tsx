import type { PickListView } from "~/search/pick-list-view";

/**
 * A search printed as a pick list: the search, its filters, how much of it the sheet holds, its
 * order and when it was made on top; the backup catalogue's warning when the rows came from it;
 * one line per item in the order a person walks the crib, with a box to tick (on a phone, or on
 * paper). A document without scripts, in every mode.
 */
export function PickList({ list, backup }: { list: PickListView; backup: string | null }) {
  return (
    <article className="pick-list" aria-labelledby="pick-list-title">
      <p className="screen-only actions">
        <a className="button secondary small" href={list.backHref}>
          ← Back to results
        </a>{" "}
        <a className="button secondary small" href={list.otherOrder.href}>
          {list.otherOrder.label}
        </a>{" "}
        <span className="muted">Print this page with the browser&apos;s Print (Ctrl+P).</span>
      </p>
      <h1 id="pick-list-title">Pick list: {list.heading}</h1>
      <p className="pick-list-meta">
        {list.refinement.length > 0 && <>{list.refinement.join(" · ")} · </>}
        <span className="pick-list-range">{list.range}</span> · <span className="pick-list-order">{list.order === "walk" ? "in walking order (by stock locator)" : "in the search's order"}</span> · printed {list.printedAt}
      </p>
      {backup && (
        <p className="notice" role="note">
          {backup}
        </p>
      )}
      {list.rows.length === 0 ? (
        <p>No data found. Please try adjusting your search criteria</p>
      ) : (
        <table className="pick-list-table">
          <thead>
            <tr>
              <th scope="col" className="c-picked">
                Picked
              </th>
              <th scope="col" className="c-n">
                #
              </th>
              {list.columns.map((c) => (
                <th key={c.key} scope="col" className={`c-${c.key}`}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {list.rows.map((cells, i) => (
              <tr key={i}>
                <td className="c-picked">
                  <input type="checkbox" name="picked" value={list.items[i]} aria-label={`Picked ${list.items[i] || `row ${i + 1}`}`} />
                </td>
                <td className="c-n">{i + 1}</td>
                {cells.map((cell, j) => (
                  <td key={list.columns[j]!.key} className={`c-${list.columns[j]!.key}`}>
                    {cell || "N/A"}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </article>
  );
}
