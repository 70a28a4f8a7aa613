import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiData, apiError, handleApi } from "~/lib/api.server";
import { getEmbeddedEngine, getSearchService } from "~/search/service.server";

/** Readiness: 503 until the catalogue (the fallback of every search) is open and answering. */
export async function loader({ request }: LoaderFunctionArgs) {
  return handleApi(request, async ({ requestId }) => {
    try {
      const { items } = getEmbeddedEngine().open();
      return apiData({ ready: true, items, engines: getSearchService().status() }, requestId);
    } catch (error) {
      console.error(`[${requestId}] not ready:`, error instanceof Error ? error.message : error);
      return apiError("The catalogue is not ready", 503, requestId);
    }
  });
}
