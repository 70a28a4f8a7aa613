import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportFilename, slug } from "~/export/filename";
import {
  BOM_EXPORT_FIELDS,
  BOM_EXPORT_LABELS,
  bomBatches,
  exportProblem,
  WHERE_USED_EXPORT_MAX,
} from "~/export/item-exports.server";
import { csvResponse, csvStream, openCursor } from "~/export/stream.server";
import { requestIdOf } from "~/lib/http.server";
import { logFailure } from "~/lib/log.server";
import { itemPath } from "~/lib/safe-path";
import { trackClick } from "~/signals/signals.server";

/** Where Used export per section: at most 1000 records, `where-used-{type}-all-{item}-{date}.csv`. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const item = (params.item ?? "").trim();
  const url = new URL(request.url);
  const type = url.searchParams.get("type");
  if (!item || item.length > 200) return exportProblem("Item number not provided", "/crib-search", 400);
  if (type !== "asset" && type !== "pm") return exportProblem("Unknown Where Used type", itemPath("/where-used", item), 400);
  const requestId = requestIdOf(request);
  let cursor;
  try {
    cursor = await openCursor(bomBatches(item, type, { requestId, signal: request.signal }, WHERE_USED_EXPORT_MAX));
  } catch (error) {
    logFailure("Where Used export", error, { requestId, signal: request.signal });
    return exportProblem("Export failed. Please try again.", url.pathname + url.search, 503);
  }
  if (cursor.first.length === 0) return exportProblem("No data available for export", itemPath("/where-used", item), 404);
  void trackClick(type === "asset" ? "where_used_asset_export" : "where_used_pm_export", { itemNumber: item });
  return csvResponse(
    csvStream({ cursor, fields: [...BOM_EXPORT_FIELDS, "quantity"], labels: BOM_EXPORT_LABELS, signal: request.signal }),
    exportFilename(`where-used-${type}-all-${slug(item)}`, new Date()),
  );
}
