import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiData, handleApi } from "~/lib/api.server";
import { getEmbeddedEngine } from "~/search/service.server";

const started = Date.now();

/** Liveness: answers while the process runs, and says how the catalogue is. */
export async function loader({ request }: LoaderFunctionArgs) {
  return handleApi(request, async ({ requestId }) => {
    let catalogue: { ok: boolean; detail?: string };
    try {
      catalogue = await getEmbeddedEngine().health();
    } catch (error) {
      catalogue = { ok: false, detail: error instanceof Error ? error.message : "unavailable" };
    }
    return apiData(
      {
        status: catalogue.ok ? "ok" : "degraded",
        uptimeSeconds: Math.round((Date.now() - started) / 1000),
        engine: { serving: "embedded", fusion: "not configured" },
        catalogue,
      },
      requestId,
    );
  });
}
