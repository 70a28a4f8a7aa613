import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { BackupNotice } from "~/components/backup-notice";
import { DownloadStarted, downloadRefresh } from "~/components/download-started";
import { ItemNav } from "~/components/item-nav";
import { AppLink } from "~/components/nav";
import { RouteErrorPanel } from "~/components/route-error-panel";
import { ProductImage } from "~/components/product-image";
import { PrintDate } from "~/components/print-date";
import { SIGNALS_API_PATH } from "~/search/paths";
import { loadProductPage } from "~/web/product-page.server";
import { watchViewDuration } from "~/signals/browser.client";
import { downloadThenRefocus } from "~/export/save-link.client";
import { recordingSignals } from "~/web/page-signals.server";

export function loader(args: LoaderFunctionArgs) {
  return recordingSignals(args, loadProductPage(args.request, args.context, args.params.id));
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.itemNumber} – ${data.title} – Crib Search` : "Product – Crib Search" },
  ...downloadRefresh(data?.exportStarted),
];

export default function ProductPage() {
  const p = useLoaderData<typeof loader>();
  // The time spent here, which only the browser knows (effects run in the browser only).
  const { docId, enabled } = p.signals;
  useEffect(() => watchViewDuration(docId, enabled, SIGNALS_API_PATH), [docId, enabled]);
  return (
    <article className="product" aria-labelledby="product-title">
      <div className="page-head">
        <AppLink to={p.back} className="button secondary small">
          ← Back
        </AppLink>
        <h1 id="product-title">
          {p.title} <span className="muted">({p.itemNumber})</span>
          {p.inactive && <span className="status-inactive"> · Inactive</span>}
        </h1>
        {p.belowMinimum && (
          <p className="stock-low" role="note">
            Below minimum stock: {p.belowMinimum}
          </p>
        )}
        <AppLink to={p.whereUsedHref} className="button small">
          View Where Used
        </AppLink>
        <a
          href={p.exportPageHref}
          className="button small secondary"
          onClick={(e) => {
            e.preventDefault();
            downloadThenRefocus(p.exportHref);
          }}
        >
          {/* What the file holds: the item's fields, as the specification lists them. */}
          Export ({p.specification.length} fields)
        </a>
      </div>
      {/* Previous and Next near the top: on a phone the item's fields run thousands of pixels down. */}
      <ItemNav {...p.neighbours} />
      <p className="print-only print-meta">
        Crib Search · {p.itemNumber} · <PrintDate />
      </p>
      <BackupNotice text={p.backup} />
      {p.exportStarted && <DownloadStarted href={p.exportStarted} />}
      {p.allResults && (
        <p className="all-results">
          <AppLink to={p.allResults.href}>All results for “{p.allResults.query}”</AppLink>
        </p>
      )}
      <div className="detail">
        <dl className="spec-list">
          {p.specification.map((row) => (
            <div key={row.name} className="spec-row">
              <dt>{row.label}</dt>
              <dd>{row.value}</dd>
            </div>
          ))}
        </dl>
        <aside className="detail-image" aria-label="Image">
          <ProductImage src={p.image} label={p.itemNumber} />
          {p.externalHref && (
            <p>
              <a href={p.externalHref} target="_blank" rel="noopener noreferrer">
                View Details ↗
              </a>
            </p>
          )}
        </aside>
      </div>
    </article>
  );
}

export function ErrorBoundary() {
  return <RouteErrorPanel fallback="Failed to load product details" notFoundTitle="Product Not Found" />;
}
