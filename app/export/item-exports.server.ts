import type { BomDoc, BomType, RequestContext } from "~/search/engine";
import { getSearchService } from "~/search/service.server";

/** Spec: Where Used exports fetch the total first, then at most this many records. */
export const WHERE_USED_EXPORT_MAX = 1000;

export const BOM_EXPORT_FIELDS = ["org_code", "item_number", "asset_number", "asset_serial_number", "asset_group", "asset_description"];
export const BOM_EXPORT_LABELS: Record<string, string> = {
  type: "Type",
  org_code: "Org Code",
  item_number: "Item Number",
  asset_number: "Asset Number",
  asset_serial_number: "Asset Serial Number",
  asset_group: "Asset Group",
  asset_description: "Asset Description",
  quantity: "Quantity",
};

/** Every BOM record of an item (of one type, or all), in pages, up to `limit`. */
export async function* bomBatches(
  itemNumber: string,
  type: BomType | undefined,
  context: RequestContext,
  limit = Number.POSITIVE_INFINITY,
  pageSize = 1000,
): AsyncIterable<BomDoc[]> {
  const service = getSearchService();
  for (let start = 0; start < limit; start += pageSize) {
    const rows = Math.min(pageSize, limit - start);
    const { docs, total } = (await service.bom({ itemNumber, type, start, rows }, context)).value;
    if (docs.length > 0) yield docs;
    if (docs.length < rows || start + rows >= total) return;
  }
}

/** A small HTML page for an export that cannot be made (no data, bad request). */
export function exportProblem(message: string, backHref: string, status: number): Response {
  const escape = (text: string) =>
    text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(message)} · Crib Search</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem">
<h1 style="font-size:1.3rem">${escape(message)}</h1><p><a href="${escape(backHref)}">← Back</a></p></body></html>`;
  return new Response(html, { status, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}
