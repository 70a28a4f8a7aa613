import type { LoaderFunctionArgs } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { apiData, handleApi } from "~/lib/api.server";
import { getSearchService } from "~/search/service.server";

/** The public configuration: what a client needs to draw the search page. No secrets. */
export async function loader({ request }: LoaderFunctionArgs) {
  return handleApi(request, async ({ requestId }) => {
    const config = getConfig();
    const service = getSearchService();
    const search = service.searchConfig;
    const status = service.status();
    return apiData(
      {
        facetFields: search.facetFields,
        allFacetFields: search.allFacetFields,
        displayOrder: search.displayOrder,
        resultFields: search.resultFields,
        pageSizes: [20, 50, 100],
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
