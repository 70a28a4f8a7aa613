import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportFilename, slug } from "~/export/filename";
import { BOM_EXPORT_FIELDS, BOM_EXPORT_LABELS, bomBatches, exportProblem } from "~/export/item-exports.server";
import { csvResponse, csvStream, openCursor } from "~/export/stream.server";
import { requestIdOf } from "~/lib/http.server";
import { logFailure } from "~/lib/log.server";
import { itemPath } from "~/lib/safe-path";
import { trackClick } from "~/signals/signals.server";

const TYPES = { all: undefined, asset: "asset", pm: "pm" } as const;
const ACTIONS = { all: "bom_export", asset: "asset_bom_export", pm: "pm_bom_export" } as const;

/** Export BOM / Export Asset BOM / Export PM BOM: `bom-{item}-{date}.csv`. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const item = (params.item ?? "").trim();
  const url = new URL(request.url);
  const typeParam = url.searchParams.get("type") ?? "all";
  if (!item || item.length > 200) return exportProblem("Item number not provided", "/crib-search", 400);
  if (!(typeParam in TYPES)) return exportProblem("Unknown BOM type", itemPath("/bom", item), 400);
  const type = typeParam as keyof typeof TYPES;
  const requestId = requestIdOf(request);
  let cursor;
  try {
    cursor = await openCursor(bomBatches(item, TYPES[type], { requestId, signal: request.signal }));
  } catch (error) {
    logFailure("BOM export", error, { requestId, signal: request.signal });
    return exportProblem("Export failed. Please try again.", url.pathname + url.search, 503);
  }
  if (cursor.first.length === 0) return exportProblem("No data available for export", itemPath("/bom", item), 404);
  const fields = type === "all" ? ["type", ...BOM_EXPORT_FIELDS] : BOM_EXPORT_FIELDS;
  void trackClick(ACTIONS[type], { itemNumber: item });
  return csvResponse(
    csvStream({ cursor, fields, labels: BOM_EXPORT_LABELS, signal: request.signal }),
    exportFilename(`bom-${slug(item)}`, new Date()),
  );
}
