import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { externalUrlOf } from "~/search/product-page.server";
import { getSearchService } from "~/search/service.server";
import { trackClick } from "~/signals/signals.server";

/**
 * "View Details ↗": redirects to the item's own http(s) URL and records the click. The target is
 * read from the catalogue, never from the request, so this is no open redirect.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const id = (params.id ?? "").trim();
  const product = id && id.length <= 200 ? (await getSearchService().getProduct(id)).value : null;
  const target = product ? externalUrlOf(product) : null;
  if (!product || !target) throw new Response("Not found", { status: 404 });
  void trackClick("pdp_external_link", { docId: product.id, url: target });
  return redirect(target);
}
