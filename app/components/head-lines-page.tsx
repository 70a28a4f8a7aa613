import { Fragment } from "react";
import { AppLink } from "./nav";
import type { HeadLinesView, HeadSummary } from "~/search/head-lines";
import { BackupNotice } from "./backup-notice";
import { cell } from "./table-cell";
import { PageList } from "./pager";
import { PrintDate } from "./print-date";
import { SortIndicator } from "./results-table";

/** `/boms/{head}`: what heads the BOM, then its lines with their parts (decision 037). */
export function HeadLinesPage({
  head,
  table,
  back,
  pageBack = null,
  partsMissing,
  backup,
}: {
  head: HeadSummary & { kind: string };
  table: HeadLinesView;
  /** The search this page was reached from (or the search home). */
  back: string;
  /** The page it was opened from when that was not a search (Where Used, an item's BOM page). */
  pageBack?: { href: string; label: string } | null;
  partsMissing: boolean;
  backup: string | null;
}) {
  const exported = table.read;
  return (
    <div className="bom-page head-lines-page">
      <div className="page-head">
        <AppLink to={back} className="button secondary small">
          ← Back to Search
        </AppLink>
        {pageBack && (
          <AppLink to={pageBack.href} className="button secondary small">
            {pageBack.label}
          </AppLink>
        )}
        <h1>
          BOM Lines <span className="muted">{head.number}</span>
        </h1>
        <a href={table.exportHref} className="button small" download>
          Export BOM Lines ({exported} {exported === 1 ? "line" : "lines"})
        </a>
      </div>
      <p className="print-only print-meta">
        Crib Search · BOM Lines {head.number} · <PrintDate />
      </p>
      <BackupNotice text={backup} />
      <HeadFacts head={head} />
      {partsMissing && (
        <p className="notice" role="status">
          The parts could not be looked up just now: descriptions, units and stock are missing.
        </p>
      )}
      <section className="bom-section" aria-labelledby="lines-heading">
        <div className="section-head">
          <h2 id="lines-heading">Lines</h2>
          <span className="range">{table.range}</span>
        </div>
        {table.truncated && <p className="muted">Only the first lines of this BOM are shown and exported.</p>}
        <LinesTable table={table} />
        {table.pager.totalPages > 1 && (
          <div className="pager-bar">
            <PageList pager={table.pager} name="Lines pages" section="Lines" />
          </div>
        )}
      </section>
    </div>
  );
}

/** What heads the BOM: its kind, description, group, serial and org, where it has them. */
function HeadFacts({ head }: { head: HeadSummary & { kind: string } }) {
  const facts: [string, string | null][] = [
    ["Type", head.kind],
    ["Description", head.description],
    ["Asset Group", head.group],
    ["Serial Number", head.serial],
    ["Org Code", head.orgCode],
  ];
  return (
    <dl className="spec-list head-facts">
      {facts
        .filter(([, value]) => value !== null)
        .map(([label, value]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
    </dl>
  );
}

/** The lines, each column heading a link that sorts by it (ascending, then descending). */
function LinesTable({ table }: { table: HeadLinesView }) {
  return (
    <div className="table-scroll">
      <table className="results-table bom-table">
        <thead>
          <tr>
            {table.columns.map((c) => (
              <th key={c.field} scope="col" aria-sort={c.sorted === "asc" ? "ascending" : c.sorted === "desc" ? "descending" : undefined}>
                <AppLink to={c.sortHref} className="sort-link" preventScrollReset>
                  {c.label}
                  <SortIndicator sorted={c.sorted} />
                </AppLink>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row) => (
            <tr key={row.key}>
              {table.columns.map((c) => (
                <td key={c.field} data-label={c.label}>
                  {c.field === "item_number" && row.itemHref ? <AppLink to={row.itemHref}>{row.item_number}</AppLink> : cell(row[c.field])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
