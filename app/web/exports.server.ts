/**
 * The CSV downloads (resource routes): each reads its request, opens the engine's cursor, and
 * answers a streamed file, or a small page saying why there is none.
 */
import { redirect, type AppLoadContext } from "@remix-run/node";
import { csvDocument } from "~/export/csv";
import { backupFilename, customFilename, exportFilename, slug } from "~/export/filename";
import { exportParams, exportSize, parseExportRequest } from "~/export/search-export.server";
import { batchSizeFor, csvResponse, csvStream, openCursor } from "~/export/stream.server";
import { requestIdOf } from "~/web/http.server";
import { BOM_TABLE_COLUMNS } from "~/search/bom-view";
import { BOM_FIELDS, BOM_TYPE_LABEL, catalogName } from "~/search/catalog-fields";
import { services } from "~/registry.server";
import type { BomNumber, BomType, Doc, RequestContext } from "~/search/engine";
import { bomPath, headLinesPath, HOME_PATH, isItemKey, productPath, SEARCH_PATH, whereUsedPath } from "~/search/paths";
import { itemNumberOf } from "~/search/field-format";
import { externalUrlOf, specificationOf, titleOf } from "~/search/product-view";
import { userMessageOf } from "~/search/errors";
import { cursorRequestOf, countRequestOf, pageRequestOf } from "~/search/request";
import { PlatformUnavailable, type Source } from "~/search/service";
import { requireUser } from "./sign-in.server";
import { bomHeadOf } from "./bom-pages.server";
import { logFailure } from "./failure-log.server";
import { problemPage } from "./problem-page.server";
import { withSignals, type SignalInput } from "./page-signals.server";

/** Spec: Where Used exports fetch the total first, then at most this many records. */
export const WHERE_USED_EXPORT_MAX = 1000;

const BOM_EXPORT_FIELDS = BOM_TABLE_COLUMNS.map((c) => c.field);
const BOM_EXPORT_LABELS: Record<string, string> = {
  type: BOM_TYPE_LABEL,
  ...Object.fromEntries(BOM_FIELDS.map((f) => [f.name, f.label])),
};

/**
 * The search results as CSV, streamed from the engine's cursor. Anything that needs the user
 * (no field chosen, nothing to export, over the limit, a failure before the first row) goes back
 * to the export dialog on the search page, which says so; that works with and without JavaScript.
 */
export async function loadSearchExport(request: Request, loadContext: AppLoadContext) {
  await requireUser(request, loadContext);
  const url = new URL(request.url);
  const { search: service, searchConfig: config, config: settings } = services();
  const exportRequest = parseExportRequest(url.searchParams, config);
  const { state, scope, fields } = exportRequest;
  const dialogHref = (step?: string) => {
    const params = exportParams(exportRequest, config);
    params.delete("scope");
    params.set("export", scope);
    if (step) params.set("export-step", step);
    if (fields.length === 0) params.set("fields-none", "1");
    return `${SEARCH_PATH}?${params}`;
  };
  const back = (step: string) => redirect(dialogHref(step));
  // A failure is said on a page of its own, with the way back to the dialog and a retry: the
  // reason is the error's text for users (spec §8), never the engine's.
  const failed = (message: string) => problemPage(message, 503, { backHref: dialogHref(), retryHref: `${url.pathname}${url.search}` });
  if (fields.length === 0) return back("no-fields");

  const requestId = requestIdOf(request, loadContext);
  const limit = settings.exportLimit;
  // The file comes from one source, the one the user saw or chose: never the backup in silence
  // while the page showed the platform's results (decision 022).
  const source: Source = exportRequest.source === "backup" ? "backup" : "platform";
  let total: number;
  try {
    total = (await service.search(countRequestOf(state), { requestId }, source)).value.total;
  } catch (error) {
    if (error instanceof PlatformUnavailable) return back("backup");
    logFailure("export count", error, { requestId, signal: request.signal });
    return failed(`Failed to get export estimate: ${userMessageOf(error)}`);
  }
  const size = exportSize(total, scope, state, limit, settings.exportCap);
  if (size.inScope === 0) return back("empty");
  if (size.needsConfirmation && !exportRequest.confirmed) return back("limit");

  const names = fields.map((f) => f.name);
  const labels = Object.fromEntries(fields.map((f) => [f.name, f.label]));
  let cursor;
  try {
    const context = { requestId, signal: request.signal };
    cursor = await openCursor(
      scope === "page"
        ? service.pageCursor(pageRequestOf(state, (state.page - 1) * state.rows, state.rows), context, source)
        : service.cursor(cursorRequestOf(state, batchSizeFor(size.records), size.records), context, source),
    );
  } catch (error) {
    if (error instanceof PlatformUnavailable) return back("backup");
    logFailure("export (before the first row)", error, { requestId, signal: request.signal });
    return failed(`Export failed: ${userMessageOf(error)}`);
  }
  const fromBackup = source === "backup" && service.status().primary !== null;
  const named = customFilename(exportRequest.filename) ?? exportFilename(scope === "all" ? "all-results" : `results-page-${state.page}`, new Date());
  // A file from the backup says so in its name, wherever it is kept.
  const filename = fromBackup ? backupFilename(named) : named;
  // The conversion is the file sent whole: known once its last row is, never for a file cut short.
  let sent: (rows: number) => void = () => undefined;
  const conversion = new Promise<SignalInput>((resolve) => {
    sent = (rows) => resolve({ type: "conversion", data: { format: "csv", numRecords: rows, fields: fields.map((f) => f.key), query: state.q, scope } });
  });
  const body = csvStream({
    cursor,
    fields: names,
    labels,
    signal: request.signal,
    onFinish: (rows) => sent(rows),
    onError: (error, rows) => logFailure(`export (after ${rows} rows)`, error, { requestId, signal: request.signal }),
  });
  return withSignals(csvResponse(body, filename), [conversion]);
}

type ExportAction = NonNullable<Extract<SignalInput, { type: "click" }>["data"]["action"]>;

/** What tells the two exports of BOM records apart: an item's BOM, and a section of its Where Used page. */
interface BomExportKind {
  /** The `type` parameter's values, each with the records it exports (undefined: every type). */
  types: Readonly<Record<string, BomType | undefined>>;
  /** The type when the request names none; null: it must name one. */
  defaultType: string | null;
  unknownType: string;
  /** The page the export is made from: the way back from its problem page. */
  pagePath: (item: string) => string;
  /** What the log calls a failure. */
  failure: string;
  fields: (type: string) => string[];
  actions: Readonly<Record<string, ExportAction>>;
  filename: (item: string, type: string) => string;
  /** Details §7: a Where Used export asks for the total first, then at most WHERE_USED_EXPORT_MAX records; a BOM export reads up to EXPORT_CAP. */
  countsFirst: boolean;
  /** An empty export may be a bookmark of decision 033's export of a BOM's lines, which have a file of their own now. */
  headLinesBookmark: boolean;
}

const BOM_EXPORTS = {
  /** Export BOM / Export Asset BOM / Export PM BOM: `bom-{item}-{date}.csv`. */
  bom: {
    types: { all: undefined, asset: "asset", pm: "pm" },
    defaultType: "all",
    unknownType: "Unknown BOM type",
    pagePath: bomPath,
    failure: "BOM export",
    fields: (type) => (type === "all" ? ["type", ...BOM_EXPORT_FIELDS] : BOM_EXPORT_FIELDS),
    actions: { all: "bom_export", asset: "asset_bom_export", pm: "pm_bom_export" },
    filename: (item) => `bom-${slug(item)}`,
    countsFirst: false,
    headLinesBookmark: true,
  },
  /** A Where Used section's export: `where-used-{type}-all-{item}-{date}.csv`. */
  "where-used": {
    types: { asset: "asset", pm: "pm" },
    defaultType: null,
    unknownType: "Unknown Where Used type",
    pagePath: whereUsedPath,
    failure: "Where Used export",
    fields: () => [...BOM_EXPORT_FIELDS, "quantity"],
    actions: { asset: "where_used_asset_export", pm: "where_used_pm_export" },
    filename: (item, type) => `where-used-${type}-all-${slug(item)}`,
    countsFirst: true,
    headLinesBookmark: false,
  },
} satisfies Record<string, BomExportKind>;

/** The number of records a BOM export reads at most. */
async function bomExportLimit(kind: BomExportKind, number: BomNumber, type: BomType | undefined, context: RequestContext): Promise<number> {
  if (!kind.countsFirst) return services().config.exportCap;
  const total = (await services().search.bom({ ...number, type, start: 0, rows: 0 }, context)).value.total;
  return Math.min(total, WHERE_USED_EXPORT_MAX);
}

/** `/bom/{item}/export.csv` and `/where-used/{item}/export.csv`: an item's BOM records of the asked type, streamed. */
export async function loadBomExport(request: Request, loadContext: AppLoadContext, rawItem: string | undefined, which: keyof typeof BOM_EXPORTS) {
  await requireUser(request, loadContext);
  const kind: BomExportKind = BOM_EXPORTS[which];
  const item = (rawItem ?? "").trim();
  const url = new URL(request.url);
  const type = url.searchParams.get("type") ?? kind.defaultType;
  if (!item) return problemPage("Item number not provided", 400, { backHref: HOME_PATH });
  // As the BOM and Where Used pages answer (web/bom-pages.server.ts).
  if (!isItemKey(item)) return problemPage("Invalid item number", 400, { backHref: HOME_PATH });
  if (type === null || !Object.hasOwn(kind.types, type)) return problemPage(kind.unknownType, 400, { backHref: kind.pagePath(item) });
  const context = { requestId: requestIdOf(request, loadContext), signal: request.signal };
  const number = { itemNumber: item };
  let cursor;
  try {
    const limit = await bomExportLimit(kind, number, kind.types[type], context);
    cursor = await openCursor(services().search.bomCursor({ ...number, type: kind.types[type], limit }, context));
  } catch (error) {
    logFailure(kind.failure, error, context);
    return problemPage(`Export failed: ${userMessageOf(error)}`, 503, { backHref: kind.pagePath(item), retryHref: url.pathname + url.search });
  }
  if (cursor.first.length === 0) {
    const head = kind.headLinesBookmark ? await bomHeadOf(item, context) : null;
    if (head) return redirect(`${headLinesPath(head)}/export.csv`);
    return problemPage("No data available for export", 404, { backHref: kind.pagePath(item) });
  }
  const click: SignalInput = { type: "click", data: { action: kind.actions[type]!, docId: item, itemNumber: item } };
  const file = csvResponse(
    csvStream({ cursor, fields: kind.fields(type), labels: BOM_EXPORT_LABELS, signal: request.signal }),
    exportFilename(kind.filename(item, type), new Date()),
  );
  return withSignals(file, [click]);
}
/** The item detail page's Export: the item's fields in display order, one row. */
export async function loadProductExport(request: Request, loadContext: AppLoadContext, rawId: string | undefined) {
  await requireUser(request, loadContext);
  const id = (rawId ?? "").trim();
  if (!id) return problemPage("Product ID not provided", 400, { backHref: HOME_PATH });
  // As the item page answers (web/product-page.server.ts): no item has such a number.
  if (!isItemKey(id)) return problemPage("Product not found", 404, { backHref: HOME_PATH });
  const requestId = requestIdOf(request, loadContext);
  const { search: service, searchConfig } = services();
  let product;
  try {
    product = (await service.getProduct(id, { requestId, signal: request.signal })).value;
  } catch (error) {
    logFailure("product export", error, { requestId, signal: request.signal });
    return problemPage(`Export failed: ${userMessageOf(error)}`, 503, { backHref: productPath(id), retryHref: new URL(request.url).pathname });
  }
  if (!product) return problemPage("Product not found", 404, { backHref: HOME_PATH });
  const spec = specificationOf(product, searchConfig.displayOrder);
  const fields = spec.map((row) => row.name);
  const labels = Object.fromEntries(spec.map((row) => [row.name, row.label]));
  const itemNumber = itemNumberOf(product);
  const file = csvResponse(csvDocument([product], fields, labels), exportFilename(`product-${slug(itemNumber)}`, new Date()));
  return withSignals(file, [
    { type: "click", data: { action: "pdp_export", docId: product.id, itemNumber, title: titleOf(product) } },
    { type: "conversion", data: { format: "csv", numRecords: 1, fields, query: itemNumber, docId: product.id, scope: "item" } },
    // The item taken (details §3's conversion): its price in USD, one of it (decision 043).
    { type: "conversion", data: { docId: product.id, value: itemValueOf(product), currency: "USD", quantity: 1 } },
  ]);
}
/** An item's value for its conversion signal: its list price, else its unit cost, else 0. */
function itemValueOf(product: Doc): number {
  for (const name of [catalogName("list_price"), catalogName("unit_cost")]) {
    const value = product[name];
    if (typeof value === "number" && Number.isFinite(value) && value >= 0) return value;
  }
  return 0;
}

/**
 * "View Details ↗": redirects to the item's own http(s) URL, with the click as its signal. The target is
 * read from the catalogue, never from the request, so this is no open redirect.
 */
export async function loadExternalLink(request: Request, loadContext: AppLoadContext, rawId: string | undefined) {
  await requireUser(request, loadContext);
  const id = (rawId ?? "").trim();
  const product = id && id.length <= 200 ? (await services().search.getProduct(id)).value : null;
  const target = product ? externalUrlOf(product) : null;
  if (!product || !target) throw new Response("Not found", { status: 404 });
  return withSignals(redirect(target), [{ type: "click", data: { action: "pdp_external_link", docId: product.id, url: target } }]);
}
