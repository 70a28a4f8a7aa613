import type { LoaderFunctionArgs } from "@remix-run/node";
import { csvDocument } from "~/export/csv";
import { exportFilename, slug } from "~/export/filename";
import { exportProblem } from "~/export/item-exports.server";
import { csvResponse } from "~/export/stream.server";
import { requestIdOf } from "~/lib/http.server";
import { logFailure } from "~/lib/log.server";
import { specificationOf } from "~/search/product-page.server";
import { getSearchService } from "~/search/service.server";
import { recordSignal, trackClick } from "~/signals/signals.server";

/** The item detail page's Export: the item's fields in display order, one row. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = (params.id ?? "").trim();
  if (!id || id.length > 200) return exportProblem("Product ID not provided", "/crib-search", 400);
  const requestId = requestIdOf(request);
  const service = getSearchService();
  let product;
  try {
    product = (await service.getProduct(id, { requestId, signal: request.signal })).value;
  } catch (error) {
    logFailure("product export", error, { requestId, signal: request.signal });
    return exportProblem("Export failed. Please try again.", new URL(request.url).pathname, 503);
  }
  if (!product) return exportProblem("Product not found", "/crib-search", 404);
  const spec = specificationOf(product, service.searchConfig.displayOrder);
  const fields = spec.map((row) => row.name);
  const labels = Object.fromEntries(spec.map((row) => [row.name, row.label]));
  const itemNumber = String(product.item_number_s ?? product.id);
  void trackClick("pdp_export", { docId: product.id, itemNumber });
  void recordSignal({ type: "conversion", data: { format: "csv", numRecords: 1, fields, query: itemNumber, docId: product.id } });
  return csvResponse(csvDocument([product], fields, labels), exportFilename(`product-${slug(itemNumber)}`, new Date()));
}
