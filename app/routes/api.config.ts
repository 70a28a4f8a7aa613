import type { LoaderFunctionArgs } from "@remix-run/node";
import { configApi } from "~/web/api-endpoints.server";

export function loader({ request, context }: LoaderFunctionArgs) {
  return configApi(request, context);
}
