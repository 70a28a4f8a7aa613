import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiData, handleApi } from "~/lib/api.server";
import { parseQuery } from "~/lib/http.server";
import { apiFacetsSchema } from "~/search/api-schemas.server";
import { getSearchService } from "~/search/service.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return handleApi(request, async ({ requestId, url }) => {
    const service = getSearchService();
    const { q, fields } = parseQuery(apiFacetsSchema(service.searchConfig), url);
    const answer = await service.search(
      { q, within: [], filters: [], sort: null, start: 0, rows: 0, facetFields: fields, highlight: false },
      { requestId, signal: request.signal },
    );
    return apiData({ facets: answer.value.facets, numFound: answer.value.total }, requestId);
  });
}
