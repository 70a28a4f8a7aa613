import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useLoaderData, useLocation, useRouteError } from "@remix-run/react";
import { BackupNotice } from "~/components/backup-notice";
import { AppLink } from "~/components/nav";
import { ErrorPanel } from "~/components/error-panel";
import { ProductImage } from "~/components/product-image";
import { requestIdOf } from "~/lib/http.server";
import { logFailure } from "~/lib/log.server";
import { isQueryId, itemPath } from "~/lib/safe-path";
import { backParam } from "~/search/bom-page.server";
import {
  externalUrlOf,
  imageOf,
  isInactive,
  neighboursOf,
  specificationOf,
  titleOf,
} from "~/search/product-page.server";
import { getSearchService } from "~/search/service.server";
import { parseSearchParams } from "~/search/state";
import { isRecordedClick, recordedClickCookie, resultClickKey } from "~/signals/result-click.server";
import { recordSignal } from "~/signals/signals.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const back = backParam(url);
  const id = (params.id ?? "").trim();
  if (!id) throw json({ message: "Product ID not provided", back }, { status: 400 });
  // eslint-disable-next-line no-control-regex
  if (id.length > 200 || /[\u0000-\u001f\u007f]/.test(id)) throw json({ message: "Product not found", back }, { status: 404 });
  const context = { requestId: requestIdOf(request), signal: request.signal };
  const service = getSearchService();
  let product;
  let degraded: boolean;
  try {
    ({ value: product, degraded } = await service.getProduct(id, context));
  } catch (error) {
    logFailure("product lookup", error, context);
    throw json({ message: "Failed to load product details", back }, { status: 503 });
  }
  if (!product) throw json({ message: "Product not found", back, notFound: true }, { status: 404 });

  // A click on a results row (productLink): counted once, so its marks stay out of this page's own
  // address, which the Where Used and BOM pages take as their way back.
  const fromResults = url.searchParams.get("via") === "result";
  const queryId = url.searchParams.get("qid");
  url.searchParams.delete("via");
  url.searchParams.delete("qid");
  const rawPos = url.searchParams.get("pos");
  const position = rawPos && /^\d{1,9}$/.test(rawPos) ? Number(rawPos) : null;
  const neighbours = await neighboursOf(product, back, position, context).catch(() => ({ prev: null, next: null, position: null, total: null }));
  const itemNumber = String(product.item_number_s ?? product.id);
  const self = `${url.pathname}${url.search}`;
  void recordSignal({
    type: "view",
    data: { docId: product.id, title: titleOf(product), category: product.category_s ?? null, itemNumber },
  });
  // The result click, when the item really is at that place in that search (the neighbours were
  // found there): a made-up link records nothing, and the same link again from this browser (a
  // reload, the browser's Back and Forward) is the click already recorded.
  let clickCookie: string | null = null;
  const validQueryId = queryId && isQueryId(queryId) ? queryId : null;
  const clickKey = fromResults && neighbours.position !== null ? resultClickKey({ docId: product.id, position: neighbours.position, back, queryId: validQueryId }) : null;
  if (clickKey && !(await isRecordedClick(request, clickKey))) {
    clickCookie = await recordedClickCookie(clickKey);
    void recordSignal({
      type: "click",
      data: {
        docId: product.id,
        position: neighbours.position,
        query: parseSearchParams(new URL(back, url).searchParams, service.searchConfig).q,
        title: titleOf(product),
        url: self,
        ...(validQueryId ? { fusionQueryId: validQueryId } : {}),
      },
    });
  }
  const page = {
    back,
    itemNumber,
    title: titleOf(product),
    inactive: isInactive(product),
    specification: specificationOf(product, service.searchConfig.displayOrder),
    image: imageOf(product),
    externalHref: externalUrlOf(product) ? `${itemPath("/product", product.id)}/external` : null,
    whereUsedHref: `${itemPath("/where-used", itemNumber)}?${new URLSearchParams({ back: self, via: "pdp_where_used" })}`,
    exportHref: `${itemPath("/product", product.id)}/export.csv?via=pdp_export`,
    bomHref: `${itemPath("/bom", itemNumber)}?${new URLSearchParams({ back: self })}`,
    neighbours,
    degraded,
  };
  return clickCookie ? json(page, { headers: { "Set-Cookie": clickCookie } }) : page;
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.itemNumber} · ${data.title} · Crib Search` : "Product · Crib Search" },
];

export default function ProductPage() {
  const p = useLoaderData<typeof loader>();
  const { prev, next, position, total } = p.neighbours;
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
        <AppLink to={p.whereUsedHref} className="button small">
          View Where Used
        </AppLink>
        <AppLink to={p.bomHref} className="button small secondary">
          View BOM
        </AppLink>
        <a href={p.exportHref} className="button small secondary" download>
          Export
        </a>
      </div>
      {p.degraded && <BackupNotice />}
      <div className="detail">
        <dl className="spec-list">
          {p.specification.map((row) => (
            <div key={row.name} style={{ display: "contents" }}>
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
      {(prev || next) && (
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
      )}
    </article>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  const body = isRouteErrorResponse(error) ? (error.data as { message?: string; back?: string; notFound?: boolean } | null) : null;
  const back = body?.back ?? "/crib-search";
  if (body?.notFound) {
    return <ErrorPanel title="Product Not Found" message={body.message ?? "Product not found"} retryHref={`${location.pathname}${location.search}`} backHref={back} />;
  }
  return <ErrorPanel message={body?.message ?? "Failed to load product details"} retryHref={`${location.pathname}${location.search}`} backHref={back} />;
}
