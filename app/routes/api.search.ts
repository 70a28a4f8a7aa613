import type { LoaderFunctionArgs } from "@remix-run/node";
import { searchApi } from "~/web/api-endpoints.server";

export function loader({ request, context }: LoaderFunctionArgs) {
  return searchApi(request, context);
}
