import type { LoaderFunctionArgs } from "@remix-run/node";
import { facetsApi } from "~/web/api-endpoints.server";

export function loader({ request, context }: LoaderFunctionArgs) {
  return facetsApi(request, context);
}
