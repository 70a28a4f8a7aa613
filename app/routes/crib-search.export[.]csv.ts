import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { customFilename, exportFilename } from "~/export/filename";
import { exportParams, exportSize, parseExportRequest } from "~/export/search-export.server";
import { batchSizeFor, csvResponse, csvStream, openCursor } from "~/export/stream.server";
import { requestIdOf } from "~/lib/http.server";
import { logFailure } from "~/lib/log.server";
import type { Doc, RequestContext, SearchRequest } from "~/search/engine";
import { getSearchService } from "~/search/service.server";
import { recordSignal } from "~/signals/signals.server";

/**
 * The search results as CSV, streamed from the engine's cursor. Anything that needs the user
 * (no field chosen, nothing to export, over the limit, a failure before the first row) goes back
 * to the export dialog on the search page, which says so; that works with and without JavaScript.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const service = getSearchService();
  const config = service.searchConfig;
  const exportRequest = parseExportRequest(url.searchParams, config);
  const { state, scope, fields } = exportRequest;
  const back = (step: string) => {
    const params = exportParams(exportRequest, config);
    params.delete("scope");
    params.set("export", scope);
    params.set("export-step", step);
    if (fields.length === 0) params.set("fields-none", "1");
    return redirect(`/crib-search/search?${params}`);
  };
  if (fields.length === 0) return back("no-fields");

  const requestId = requestIdOf(request);
  const limit = getConfig().exportLimit;
  let total: number;
  try {
    total = (await service.search({ q: state.q, within: state.within, filters: state.filters, sort: state.sort, start: 0, rows: 0, facetFields: [] }, { requestId })).value.total;
  } catch (error) {
    logFailure("export count", error, { requestId, signal: request.signal });
    return back("failed");
  }
  const size = exportSize(total, scope, state, limit);
  if (size.inScope === 0) return back("empty");
  if (size.needsConfirmation && !exportRequest.confirmed) return back("limit");

  const names = fields.map((f) => f.name);
  const labels = Object.fromEntries(fields.map((f) => [f.name, f.label]));
  let cursor;
  try {
    const context = { requestId, signal: request.signal };
    const query = { q: state.q, within: state.within, filters: state.filters, sort: state.sort };
    cursor = await openCursor(
      scope === "page"
        ? pageBatch(service, { ...query, start: (state.page - 1) * state.rows, rows: state.rows, facetFields: [], highlight: false }, context)
        : service.cursor({ ...query, batchSize: batchSizeFor(size.records), limit: size.records }, context),
    );
  } catch (error) {
    logFailure("export (before the first row)", error, { requestId, signal: request.signal });
    return back("failed");
  }
  const filename =
    customFilename(exportRequest.filename) ??
    exportFilename(scope === "all" ? "all-results" : `results-page-${state.page}`, new Date());
  const body = csvStream({
    cursor,
    fields: names,
    labels,
    signal: request.signal,
    onFinish: (rows) =>
      void recordSignal({ type: "conversion", data: { format: "csv", numRecords: rows, fields: fields.map((f) => f.key), query: state.q, scope } }),
    onError: (error, rows) => logFailure(`export (after ${rows} rows)`, error, { requestId, signal: request.signal }),
  });
  return csvResponse(body, filename);
}

/** The shown page as a one-batch cursor. */
async function* pageBatch(
  service: ReturnType<typeof getSearchService>,
  request: SearchRequest,
  context: RequestContext,
): AsyncIterable<Doc[]> {
  yield (await service.search(request, context)).value.docs;
}
