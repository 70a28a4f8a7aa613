import { useSubmit } from "@remix-run/react";
import { HiddenInputs } from "./hidden-inputs";
import { WithoutScript } from "./hydration";
import { AppForm, AppLink } from "./nav";
import type { ReactNode } from "react";
import type { BomSectionView } from "~/search/bom-view";
import { PageList, PageSizeSelect } from "./pager";
import { SortIndicator } from "./results-table";
import { cell } from "./table-cell";

interface BomSectionProps {
  section: BomSectionView;
  action: string;
  emptyText: string;
  /** Extra controls in the section header (export menu, sort select). */
  controls?: ReactNode;
  headingLevel?: 2 | 3;
}

export function BomSection({ section, action, emptyText, controls, headingLevel = 2 }: BomSectionProps) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const headingId = `${section.prefix}-heading`;
  return (
    <section className="bom-section" aria-labelledby={headingId}>
      <div className="section-head">
        <Heading id={headingId}>{section.title}</Heading>
        {section.total > 0 && <span className="range">{section.range}</span>}
        {controls && <div className="section-controls">{controls}</div>}
      </div>
      {section.total === 0 ? (
        <p className="muted empty-section">{emptyText}</p>
      ) : (
        <>
          <div className="table-scroll">
            {/* On a narrow screen each row is a card of label: value lines (the stylesheet). */}
            <table className="results-table bom-table">
              <thead>
                <tr>
                  {section.columns.map((c) => (
                    <th
                      key={c.field}
                      scope="col"
                      aria-sort={c.sorted === "asc" ? "ascending" : c.sorted === "desc" ? "descending" : undefined}
                    >
                      <AppLink to={c.sortHref} className="sort-link" preventScrollReset>
                        {c.label}
                        <SortIndicator sorted={c.sorted} />
                      </AppLink>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {section.rows.map((row) => (
                  <tr key={row.key}>
                    {section.columns.map((c) => (
                      <td key={c.field} data-label={c.label}>
                        {row.hrefs[c.field] ? <AppLink to={row.hrefs[c.field]!}>{cell(row[c.field])}</AppLink> : cell(row[c.field])}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {section.pager.totalPages > 1 && <SectionPager section={section} action={action} />}
        </>
      )}
    </section>
  );
}

function SectionPager({ section, action }: { section: BomSectionView; action: string }) {
  const { pager } = section;
  const inputId = `${section.prefix}-jump`;
  return (
    <div className="pager-bar">
      <PageList pager={pager} name={`${section.title} pages`} section={section.title} />
      <AppForm action={action} className="inline-form" preventScrollReset>
        <HiddenInputs params={section.hidden} />
        <label htmlFor={inputId}>Jump To</label>
        <input id={inputId} name={section.pageParam} type="number" min={1} max={pager.totalPages} placeholder={String(pager.page)} required />
        <button type="submit" className="small">
          Go
        </button>
      </AppForm>
    </div>
  );
}

export interface SectionControlsView {
  sortParam: string;
  sortValue: string;
  rowsParam: string;
  rows: number;
  pageSizes: number[];
  hidden: [string, string][];
}

/**
 * A Where Used section's Sort By and Show (page size): a GET form of the page, so it works without
 * JavaScript (its Apply button); with JavaScript a change submits it.
 */
export function SectionControls({ title, controls, sorts, action }: { title: string; controls: SectionControlsView; sorts: { value: string; label: string }[]; action: string }) {
  const submit = useSubmit();
  const onChange = (e: { currentTarget: HTMLSelectElement }) => submit(e.currentTarget.form, { preventScrollReset: true });
  return (
    <AppForm action={action} className="inline-form section-form">
      <HiddenInputs params={controls.hidden} />
      <label>
        <span>Sort By</span>
        <select name={controls.sortParam} defaultValue={controls.sortValue} key={controls.sortValue} aria-label={`${title} sort`} onChange={onChange}>
          {sorts.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>Show</span>
        <PageSizeSelect name={controls.rowsParam} sizes={controls.pageSizes} value={controls.rows} key={controls.rows} aria-label={`${title} rows per page`} />
      </label>
      <WithoutScript>
        <button type="submit" className="small">
          Apply
        </button>
      </WithoutScript>
    </AppForm>
  );
}
