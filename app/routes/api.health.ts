import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiData, handleApi } from "~/lib/api.server";
import { getEmbeddedEngine, getSearchService } from "~/search/service.server";

const started = Date.now();

/**
 * Liveness: answers while the process runs, and says which engine serves and how the catalogue is.
 * "degraded" while the platform's circuit is open or its last answer was a configuration error.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return handleApi(request, async ({ requestId }) => {
    let catalogue: { ok: boolean; detail?: string };
    try {
      catalogue = await getEmbeddedEngine().health();
    } catch (error) {
      catalogue = { ok: false, detail: error instanceof Error ? error.message : "unavailable" };
    }
    const engines = getSearchService().status();
    return apiData(
      {
        status: catalogue.ok && engines.primary?.breaker.state !== "open" && !engines.primary?.configurationError ? "ok" : "degraded",
        uptimeSeconds: Math.round((Date.now() - started) / 1000),
        engines,
        catalogue,
      },
      requestId,
    );
  });
}
