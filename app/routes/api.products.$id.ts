import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiData, handleApi } from "~/lib/api.server";
import { badRequest, describeZodError, notFound } from "~/lib/http.server";
import { ProductIdSchema } from "~/search/api-schemas.server";
import { getSearchService } from "~/search/service.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(request, async ({ requestId }) => {
    const id = ProductIdSchema.safeParse(params.id ?? "");
    if (!id.success) throw badRequest(describeZodError(id.error));
    const answer = await getSearchService().getProduct(id.data, { requestId, signal: request.signal });
    if (!answer.value) throw notFound("Product not found");
    return apiData(answer.value, requestId);
  });
}
