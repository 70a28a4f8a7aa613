import type { LoaderFunctionArgs } from "@remix-run/node";
import { productsApi } from "~/web/api-endpoints.server";

export function loader({ request, context }: LoaderFunctionArgs) {
  return productsApi(request, context);
}
