import { json, type AppLoadContext } from "@remix-run/node";
import { pageContext } from "~/web/http.server";
import { services } from "~/registry.server";
import type { Doc, RequestContext } from "~/search/engine";
import { exportCsvPath, isItemKey, isQueryId, isSearchPath, productLink, productPath, whereUsedPath } from "~/search/paths";
import { catalogName } from "~/search/catalog-fields";
import { belowMinimumOf, belowMinimumText, isInactive, itemNumberOf } from "~/search/field-format";
import { externalUrlOf, imageOf, specificationOf, titleOf } from "~/search/product-view";
import { EMPTY_STATE, goToPage, parseSearchParams, searchHref } from "~/search/state";
import { shellFromBack } from "~/search/page-shell";
import { listQueryOf } from "~/search/query/number-jump";
import { pageRequestOf } from "~/search/request";
import { requireUser } from "./sign-in.server";
import { backParam } from "./bom-pages.server";
import { backupOf } from "./backup.server";
import { logFailure } from "./failure-log.server";
import { withSignals, type SignalInput } from "./page-signals.server";
import type { Source } from "~/search/service";

export interface Neighbour {
  itemNumber: string;
  href: string;
}

/**
 * Previous and next results around an item, from the search it was opened from. The search travels
 * in `back` and the item's place in it in `pos`; the search is re-run for the three results around
 * that place. When the results have changed and the item is not there any more, there is no
 * previous or next rather than a wrong one. `source` is the engine that answered the item: the
 * neighbours come from the same one, or there are none (decision 022).
 */
async function neighboursOf(
  product: Doc,
  back: string,
  position: number | null,
  context: RequestContext,
  source?: Source,
): Promise<{ prev: Neighbour | null; next: Neighbour | null; position: number | null; total: number | null }> {
  const none = { prev: null, next: null, position: null, total: null };
  if (position === null || !isSearchPath(back)) return none;
  const { search: service, searchConfig: config } = services();
  const state = parseSearchParams(new URL(back, "http://x").searchParams, config);
  const start = Math.max(0, position - 1);
  const answer = await service.search(pageRequestOf(state, start, 3), context, source);
  const docs = answer.value.docs;
  const at = docs.findIndex((d) => d.id === product.id);
  if (at < 0 || start + at !== position) return none;
  const link = (doc: Doc | undefined, pos: number): Neighbour | null => {
    if (!doc) return null;
    const itemNumber = itemNumberOf(doc);
    const page = Math.floor(pos / state.rows) + 1;
    return { itemNumber, href: productLink(itemNumber, searchHref(goToPage(state, page), config), pos) };
  };
  return {
    prev: at > 0 ? link(docs[at - 1], position - 1) : null,
    next: link(docs[at + 1], position + 1),
    position,
    total: answer.value.total,
  };
}

const CATEGORY_FIELD = catalogName("category");

/** The item's category, for the view signal. */
function categoryOf(product: Doc): string | null {
  const category = product[CATEGORY_FIELD];
  return category == null ? null : String(category);
}

function withParam(params: URLSearchParams, name: string, value: string): URLSearchParams {
  const next = new URLSearchParams(params);
  next.set(name, value);
  return next;
}

/** /product/{id or item number}: the item, its neighbours in the search it came from, its links; its view and result click. */
export async function loadProductPage(request: Request, loadContext: AppLoadContext, rawId: string | undefined) {
  await requireUser(request, loadContext);
  const url = new URL(request.url);
  const back = backParam(url);
  const id = (rawId ?? "").trim();
  if (!id) throw json({ message: "Product ID not provided", back }, { status: 400 });
  if (!isItemKey(id)) throw json({ message: "Product not found", back }, { status: 404 });
  const context = pageContext(request, loadContext);
  const { search: service, searchConfig, config } = services();
  let product;
  let degraded: boolean;
  let backup;
  let source: Source;
  try {
    const answer = await service.getProduct(id, context);
    ({ value: product, degraded } = answer);
    backup = backupOf(answer);
    source = degraded ? "backup" : "platform";
  } catch (error) {
    logFailure("product lookup", error, context);
    throw json({ message: "Failed to load product details", back }, { status: 503 });
  }
  // An unknown number is often a typo or a number of another system: offer the search for it.
  if (!product) throw json({ message: "Product not found", back, notFound: true, search: { query: id, href: searchHref({ ...EMPTY_STATE, q: id }, searchConfig) } }, { status: 404 });

  // A click on a results row (productLink): counted once, so its marks stay out of this page's own
  // address, which the Where Used page takes as its way back.
  const fromResults = url.searchParams.get("via") === "result";
  const queryId = url.searchParams.get("qid");
  // Export without JavaScript comes back here (`export=csv`): the page starts the download.
  const exporting = url.searchParams.get("export") === "csv";
  url.searchParams.delete("via");
  url.searchParams.delete("qid");
  url.searchParams.delete("export");
  const rawPos = url.searchParams.get("pos");
  const position = rawPos && /^\d{1,9}$/.test(rawPos) ? Number(rawPos) : null;
  const neighbours = await neighboursOf(product, back, position, context, source).catch((error: unknown) => {
    logFailure("the item's place in its search", error, context);
    return { prev: null, next: null, position: null, total: null };
  });
  const itemNumber = itemNumberOf(product);
  const self = `${url.pathname}${url.search}`;
  // The page an export returns to is the same view again, not another one.
  const signals: SignalInput[] = exporting ? [] : [{ type: "view", data: { docId: product.id, title: titleOf(product), category: categoryOf(product), itemNumber } }];
  // The result click, when the item really is at that place in that search (the neighbours were
  // found there): a made-up link records nothing; the same item again from the same session within
  // a while (a reload, Back and Forward, a replayed link) is the click already counted (signals.server.ts).
  const validQueryId = queryId && isQueryId(queryId) ? queryId : null;
  if (fromResults && neighbours.position !== null) {
    signals.push({
      type: "click",
      data: {
        docId: product.id,
        position: neighbours.position,
        query: parseSearchParams(new URL(back, url).searchParams, searchConfig).q,
        title: titleOf(product),
        url: self,
        ...(validQueryId ? { fusionQueryId: validQueryId } : {}),
      },
    });
  }
  const exportHref = exportCsvPath("/product", product.id, { via: "pdp_export" });
  const page = {
    back,
    shell: shellFromBack(back),
    itemNumber,
    title: titleOf(product),
    inactive: isInactive(product),
    belowMinimum: ((below) => (below ? belowMinimumText(below) : null))(belowMinimumOf(product)),
    specification: specificationOf(product, searchConfig.displayOrder),
    image: imageOf(product, config.imageHosts),
    externalHref: externalUrlOf(product) ? `${productPath(product.id)}/external` : null,
    whereUsedHref: `${whereUsedPath(itemNumber)}?${new URLSearchParams({ back: self, via: "pdp_where_used" })}`,
    exportHref,
    // Export without JavaScript: this page again, which starts the download and leaves the focus
    // in the header's box, not on Export (a scan's Enter would export again).
    exportPageHref: `${url.pathname}?${withParam(url.searchParams, "export", "csv")}`,
    exportStarted: exporting ? exportHref : null,
    neighbours,
    degraded,
    backup,
    // Opened by its number from the search box: the way to the list that search would have shown.
    allResults: isSearchPath(back) && listQueryOf(back) !== null ? { query: listQueryOf(back)!, href: back } : null,
    // Usage signals: the browser reports the time spent on the page (app/signals/browser.client.ts).
    signals: { docId: product.id, enabled: services().signals.enabled },
  };
  return withSignals(page, signals);
}
