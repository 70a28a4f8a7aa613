import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiData, handleApi } from "~/lib/api.server";
import { parseQuery } from "~/lib/http.server";
import { apiSearchSchema } from "~/search/api-schemas.server";
import { getSearchService } from "~/search/service.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return handleApi(request, async ({ requestId, url }) => {
    const service = getSearchService();
    const params = parseQuery(apiSearchSchema(service.searchConfig), url);
    const answer = await service.search(
      {
        q: params.q,
        within: [],
        filters: params.filters,
        sort: params.sort,
        start: params.start,
        rows: params.rows,
        facetFields: params.facets,
        highlight: params.highlight,
      },
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
