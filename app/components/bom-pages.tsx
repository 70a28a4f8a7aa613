import { useLocation } from "@remix-run/react";
import { AppLink } from "./nav";
import type { BomSectionView } from "~/search/bom-view";
import { BackupNotice } from "./backup-notice";
import { BomSection } from "./bom-section";
import { PrintDate } from "./print-date";

const EMPTY_TEXT: Record<string, string> = {
  asset: "No Asset BOM data found for this item",
  pm: "No PM BOM data found for this item",
  other: "No other BOM items for this item",
};

/** The BOM page and the single-type Asset BOM and PM BOM pages. */
export function BomPage({
  itemNumber,
  title,
  sections,
  exportLabel,
  exportHref,
  back,
  pageBack = null,
}: {
  itemNumber: string;
  title: string;
  sections: (BomSectionView & { degraded: boolean; backup?: string | null })[];
  exportLabel: string;
  exportHref: string;
  /** The search this page was reached from (or the search home). */
  back: string;
  /** The page it was opened from when that was not a search (an item, a Where Used page). */
  pageBack?: { href: string; label: string } | null;
}) {
  const location = useLocation();
  // The button says what the file will hold (issue 29): every record of the page's sections.
  const records = sections.reduce((sum, section) => sum + section.total, 0);
  return (
    <div className="bom-page">
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
          {title} <span className="muted">{itemNumber}</span>
        </h1>
        <a href={exportHref} className="button small" download>
          {exportLabel} ({records} {records === 1 ? "record" : "records"})
        </a>
      </div>
      <p className="print-only print-meta">
        Crib Search · {title} {itemNumber} · <PrintDate />
      </p>
      <BackupNotice text={sections.find((s) => s.backup)?.backup} />
      {sections.map((section) => (
        <BomSection key={section.prefix} section={section} action={location.pathname} emptyText={EMPTY_TEXT[section.type] ?? ""} />
      ))}
    </div>
  );
}
