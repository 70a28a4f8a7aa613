import type { LoaderFunctionArgs } from "@remix-run/node";
import { healthApi } from "~/web/api-endpoints.server";

export function loader({ request, context }: LoaderFunctionArgs) {
  return healthApi(request, context);
}
