import type { LoaderFunctionArgs } from "@remix-run/node";
import { readyApi } from "~/web/api-endpoints.server";

export function loader({ request, context }: LoaderFunctionArgs) {
  return readyApi(request, context);
}
