import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { BackupNotice } from "~/components/backup-notice";
import { BomSection, SectionControls } from "~/components/bom-section";
import { Breadcrumbs } from "~/components/breadcrumbs";
import { AppLink } from "~/components/nav";
import { RouteErrorPanel } from "~/components/route-error-panel";
import { PrintDate } from "~/components/print-date";
import { loadWhereUsed } from "~/web/bom-pages.server";
import { recordingSignals } from "~/web/page-signals.server";

export function loader(args: LoaderFunctionArgs) {
  return recordingSignals(args, loadWhereUsed(args.request, args.context, args.params.item));
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Where Used: ${data?.item ?? ""}${data?.description ? ` – ${data.description}` : ""} – Crib Search` },
];

export default function WhereUsedPage() {
  const { item, description, crumbs, sections, exportBase, sorts, bom, print } = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <div className="where-used">
      <Breadcrumbs crumbs={crumbs} />
      <div className="page-head">
        <h1>Where Used: {item}</h1>
        {description && <p className="item-description">{description}</p>}
        {bom && (
          // The item's BOM page: these records in the spec's sections, and its uses in tools' BOMs.
          <AppLink to={bom.href} className="button small secondary">
            View BOM ({bom.records} {bom.records === 1 ? "record" : "records"}
            {bom.inTools > 0 ? `, ${bom.inTools} in tools' BOMs` : ""})
          </AppLink>
        )}
      </div>
      {print && (
        // Paper gets every row: a page of five would print five.
        <p className="print-all">
          {print.printing ? (
            <>
              Every row is shown, to print with the browser&apos;s Print. <AppLink to={print.href}>Show pages</AppLink>
            </>
          ) : (
            <AppLink to={print.href}>Show all {print.rows} rows to print</AppLink>
          )}
        </p>
      )}
      <p className="print-only print-meta">
        Crib Search · Where Used: {item} · <PrintDate />
      </p>
      <BackupNotice text={sections.find((s) => s.backup)?.backup} />
      {sections.map((section) => (
        <BomSection
          key={section.prefix}
          section={section}
          action={location.pathname}
          emptyText={`No ${section.title}s found that use component: ${item}`}
          controls={
            <>
              {section.total > 0 && (
                <details className="menu">
                  <summary className="button small secondary">Export</summary>
                  <ul>
                    <li>
                      <a href={`${exportBase}?type=${section.type}`} download>
                        Export all {Math.min(section.total, 1000)} {section.title} records (CSV)
                      </a>
                    </li>
                  </ul>
                </details>
              )}
              <SectionControls title={section.title} controls={section.controls} sorts={sorts} action={location.pathname} />
            </>
          }
        />
      ))}
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteErrorPanel fallback="Failed to fetch Where Used data" notFoundTitle="Item Not Found" />;
}
