import type { LoaderFunctionArgs } from "@remix-run/node";
import { readyApi } from "~/web/api-endpoints.server";

export function loader({ request }: LoaderFunctionArgs) {
  return readyApi(request);
}
