/**
 * The backend API (DESIGN.md "Backend API"): one handler per endpoint, each wrapped in the
 * `{"data": …}` / `{"error": …}` wrapper by `handleApi` (the "envelope" is the security one, envelope.server.ts).
 */
import type { AppLoadContext } from "@remix-run/node";
import { badRequest, describeZodError, notFound, parseQuery } from "~/web/http.server";
import { notReadyReasons, probeState } from "./probes.server";
import { failingStores } from "~/lib/store-health.server";
import { services } from "~/registry.server";
import { PAGE_SIZES } from "~/search/state";
import { queryText } from "~/search/query/query";
import { countRequestOf, pageRequestOf, type SearchQuery } from "~/search/request";
import { apiFacetsSchema, ApiProductsSchema, apiSearchSchema, ApiSuggestionsSchema, ProductIdSchema } from "./api-schemas.server";
import { apiData, apiError, handleApi } from "./api.server";

const started = Date.now();

/** The API's plain searches: the text alone, no refinement, in relevance order. */
function queryFor(q: string): SearchQuery {
  return { q, within: [], filters: [], sort: null };
}

export function searchApi(request: Request, context: AppLoadContext) {
  return handleApi(request, context, async ({ requestId, url }) => {
    const { search: service, searchConfig } = services();
    const params = parseQuery(apiSearchSchema(searchConfig), url);
    const query = { q: params.query ? queryText(params.query) : params.q, within: [], filters: params.filters, sort: params.sort };
    const answer = await service.search(
      { ...pageRequestOf(query, params.start, params.rows), facetFields: params.facets, highlight: params.highlight },
      { requestId, signal: request.signal },
    );
    const { docs, total, facets, highlighting, suggestions } = answer.value;
    return apiData(
      { docs, numFound: total, start: params.start, rows: params.rows, facets, highlighting, suggestions, engine: answer.engine },
      requestId,
      { headers: { "Server-Timing": `engine;dur=${answer.engineMs.toFixed(1)}` } },
    );
  });
}

export function suggestionsApi(request: Request, context: AppLoadContext) {
  return handleApi(request, context, async ({ requestId, url }) => {
    const { q, limit } = parseQuery(ApiSuggestionsSchema, url);
    const suggestions = q.trim() ? (await services().search.suggest(q, limit, { requestId })).value : [];
    return apiData({ suggestions }, requestId);
  });
}

export function productsApi(request: Request, context: AppLoadContext) {
  return handleApi(request, context, async ({ requestId, url }) => {
    const { q, start, rows } = parseQuery(ApiProductsSchema, url);
    const answer = await services().search.search(pageRequestOf(queryFor(q), start, rows), { requestId, signal: request.signal });
    return apiData({ docs: answer.value.docs, numFound: answer.value.total, start, rows }, requestId);
  });
}

export function productApi(request: Request, context: AppLoadContext, rawId: string | undefined) {
  return handleApi(request, context, async ({ requestId }) => {
    const id = ProductIdSchema.safeParse(rawId ?? "");
    if (!id.success) throw badRequest(describeZodError(id.error));
    const answer = await services().search.getProduct(id.data, { requestId, signal: request.signal });
    if (!answer.value) throw notFound("Product not found");
    return apiData(answer.value, requestId);
  });
}

export function facetsApi(request: Request, context: AppLoadContext) {
  return handleApi(request, context, async ({ requestId, url }) => {
    const { search: service, searchConfig } = services();
    const { q, fields } = parseQuery(apiFacetsSchema(searchConfig), url);
    const answer = await service.search({ ...countRequestOf(queryFor(q)), facetFields: fields }, { requestId, signal: request.signal });
    return apiData({ facets: answer.value.facets, numFound: answer.value.total }, requestId);
  });
}

/**
 * Liveness: answers while the process runs, at once, from the state the probes keep in the
 * background (probes.server.ts): which engine serves, the platform's last health check, the
 * catalogue this replica serves and the replica's id. "degraded" while the platform failed its
 * last check, its circuit is open or its last answer was a configuration error.
 */
export function healthApi(request: Request, context: AppLoadContext) {
  return handleApi(request, context, async ({ requestId }) => {
    const { search: service, catalogue: engine } = services();
    const state = probeState();
    const catalogue = !engine
      ? { ok: true, detail: "not used: the backup is the product backend" }
      : state.catalogue?.ok
        ? { ok: true, detail: `${state.catalogue.identity.items} items${state.catalogue.identity.builtAt ? `, built ${state.catalogue.identity.builtAt}` : ""}`, ...state.catalogue.identity }
        : { ok: false, detail: state.catalogue?.detail ?? "not opened yet" };
    const platform = state.platform;
    const engines = service.status();
    const platformOk = !engines.primary || (platform?.ok !== false && engines.primary.breaker.state !== "open" && !engines.primary.configurationError);
    // A store whose last call failed (PostgreSQL away, a full disk under sessions.db) says so until one works.
    const failing = failingStores();
    const storesOk = failing.length === 0 && state.shared?.ok !== false;
    return apiData(
      {
        status: catalogue.ok && platformOk && storesOk ? "ok" : "degraded",
        replica: state.replica,
        uptimeSeconds: Math.round((Date.now() - started) / 1000),
        engines: { ...engines, ...(engines.primary ? { primary: { ...engines.primary, health: platform ?? { ok: null, detail: "not checked yet" } } } : {}) },
        catalogue,
        ...(state.shared ? { shared: state.shared } : {}),
        stores: { ok: failing.length === 0, failing: failing.map(({ store, use, since, detail, failures }) => ({ store, use, since, detail, failures })) },
        draining: state.draining,
      },
      requestId,
    );
  }, { public: true });
}

/**
 * Readiness, at once from the probes' state: 503 while the catalogue (the fallback of every
 * search) cannot be opened, the shared store does not answer, or the server is starting or
 * stopping. Fusion does not count: the backup answers searches whatever it does.
 */
export function readyApi(request: Request, context: AppLoadContext) {
  return handleApi(request, context, async ({ requestId }) => {
    const { search: service } = services();
    const state = probeState();
    const reasons = notReadyReasons(state);
    const identity = state.catalogue?.ok ? state.catalogue.identity : null;
    if (reasons.length === 0) {
      return apiData(
        { ready: true, replica: state.replica, items: identity?.items ?? null, catalogue: identity, engines: service.status(), ...(state.platform ? { platform: state.platform } : {}) },
        requestId,
      );
    }
    if (state.catalogue && !state.catalogue.ok) {
      console.error(`[${requestId}] not ready:`, state.catalogue.detail);
      return apiError(`The catalogue is not ready: ${notReadyReason(state.catalogue.detail)}`, 503, requestId);
    }
    const why = reasons.includes("stopping") ? "this replica is stopping" : reasons.includes("starting") ? "this replica is starting" : "the shared store is not answering";
    return apiError(`Not ready: ${why} (replica ${state.replica})`, 503, requestId);
  }, { public: true });
}

/**
 * Why the catalogue cannot serve, in words for whoever probes readiness (the probe is public: no
 * file paths); the log has the whole detail.
 */
function notReadyReason(detail: string): string {
  if (/not found|ENOENT/i.test(detail)) return "its file does not exist yet (run the import, or let the server create the sample catalogue)";
  if (/schema version/i.test(detail)) return "its file was built by another version of the portal; import the catalogue again";
  return "its file cannot be read as a catalogue; import the catalogue again";
}

/** The public configuration: what a client needs to draw the search page. No secrets. */
export function configApi(request: Request, context: AppLoadContext) {
  return handleApi(request, context, async ({ requestId }) => {
    const { config, searchConfig: search, search: service } = services();
    const status = service.status();
    return apiData(
      {
        facetFields: search.facetFields,
        allFacetFields: search.allFacetFields,
        displayOrder: search.displayOrder,
        resultFields: search.resultFields,
        pageSizes: PAGE_SIZES,
        exportLimit: config.exportLimit,
        ssoEnabled: config.sso !== null,
        signalsEnabled: config.signalsEnabled,
        typeaheadEnabled: config.typeaheadEnabled,
        engine: status.primary?.name ?? status.fallback,
      },
      requestId,
    );
  });
}
