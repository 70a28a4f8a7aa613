import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiData, handleApi } from "~/lib/api.server";
import { parseQuery } from "~/lib/http.server";
import { ApiSuggestionsSchema } from "~/search/api-schemas.server";
import { getSearchService } from "~/search/service.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return handleApi(request, async ({ requestId, url }) => {
    const { q, limit } = parseQuery(ApiSuggestionsSchema, url);
    const suggestions = q.trim() ? (await getSearchService().suggest(q, limit, { requestId })).value : [];
    return apiData({ suggestions }, requestId);
  });
}
