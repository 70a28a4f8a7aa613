import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiData, handleApi } from "~/lib/api.server";
import { parseQuery } from "~/lib/http.server";
import { ApiProductsSchema } from "~/search/api-schemas.server";
import { getSearchService } from "~/search/service.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return handleApi(request, async ({ requestId, url }) => {
    const { q, start, rows } = parseQuery(ApiProductsSchema, url);
    const answer = await getSearchService().search(
      { q, within: [], filters: [], sort: null, start, rows, facetFields: [], highlight: false },
      { requestId, signal: request.signal },
    );
    return apiData({ docs: answer.value.docs, numFound: answer.value.total, start, rows }, requestId);
  });
}
