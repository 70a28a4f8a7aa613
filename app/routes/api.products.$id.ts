import type { LoaderFunctionArgs } from "@remix-run/node";
import { productApi } from "~/web/api-endpoints.server";

export function loader({ request, context, params }: LoaderFunctionArgs) {
  return productApi(request, context, params.id);
}
