import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { BackupNotice } from "~/components/backup-notice";
import { BomSection } from "~/components/bom-section";
import { Breadcrumbs, type Crumb } from "~/components/breadcrumbs";
import { RouteErrorPanel } from "~/components/route-error-panel";
import { requestIdOf } from "~/lib/http.server";
import { logFailure } from "~/lib/log.server";
import { itemPath, safePath } from "~/lib/safe-path";
import { backParam, itemNumberParam, loadBomSection, type SectionSpec } from "~/search/bom-page.server";
import { getSearchService } from "~/search/service.server";
import { trackClick } from "~/signals/signals.server";
import { WHERE_USED_COLUMNS, WHERE_USED_PAGE_SIZE } from "~/search/bom-view";
import { parseSearchParams } from "~/search/state";

const SECTIONS: SectionSpec[] = [
  { prefix: "asset", type: "asset", title: "Asset BOM", columns: WHERE_USED_COLUMNS, pageSize: WHERE_USED_PAGE_SIZE, defaultSort: { field: "item_number", direction: "asc" } },
  { prefix: "pm", type: "pm", title: "PM BOM", columns: WHERE_USED_COLUMNS, pageSize: WHERE_USED_PAGE_SIZE, defaultSort: { field: "item_number", direction: "asc" } },
];

/** Breadcrumbs from where the user came: a search, or an item page (which itself may carry its search). */
function crumbsFor(back: string, item: string): Crumb[] {
  const crumbs: Crumb[] = [{ label: "Home", href: "/crib-search" }];
  const searchCrumb = (href: string): Crumb => {
    const q = parseSearchParams(new URL(href, "http://x").searchParams, getSearchService().searchConfig).q;
    return { label: q ? `Search Results: "${q}"` : "Search Results", href };
  };
  if (back.startsWith("/crib-search/search")) crumbs.push(searchCrumb(back));
  if (back.startsWith("/product/")) {
    const productUrl = new URL(back, "http://x");
    const fromSearch = safePath(productUrl.searchParams.get("back"), "");
    if (fromSearch.startsWith("/crib-search/search")) crumbs.push(searchCrumb(fromSearch));
    crumbs.push({ label: `Product ${decodeURIComponent(productUrl.pathname.slice("/product/".length))}`, href: back });
  }
  crumbs.push({ label: `Where Used: ${item}` });
  return crumbs;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const item = itemNumberParam(params.item);
  const url = new URL(request.url);
  const back = backParam(url);
  const context = { requestId: requestIdOf(request), signal: request.signal };
  if (url.searchParams.get("via") === "pdp_where_used") void trackClick("pdp_where_used", { itemNumber: item });
  url.searchParams.delete("via");
  try {
    const [asset, pm] = await Promise.all(SECTIONS.map((spec) => loadBomSection(item, spec, url, context)));
    return { item, back, crumbs: crumbsFor(back, item), sections: [asset!, pm!], exportBase: `${itemPath("/where-used", item)}/export.csv` };
  } catch (error) {
    logFailure("Where Used", error, context);
    throw json({ message: "Failed to fetch Where Used data", back }, { status: 503 });
  }
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Where Used: ${data?.item ?? ""} · Crib Search` }];

export default function WhereUsedPage() {
  const { item, crumbs, sections, exportBase } = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <div className="where-used">
      <Breadcrumbs crumbs={crumbs} />
      <div className="page-head">
        <h1>Where Used: {item}</h1>
      </div>
      {sections.some((s) => s.degraded) && <BackupNotice />}
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
              <label className="inline-form">
                <span>Sort By</span>
                <select name={`${section.prefix}-relevance`} defaultValue="relevance" aria-label={`${section.title} sort`}>
                  <option value="relevance">Relevance</option>
                </select>
              </label>
            </>
          }
        />
      ))}
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteErrorPanel fallback="Failed to fetch Where Used data" />;
}
