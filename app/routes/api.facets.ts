import type { LoaderFunctionArgs } from "@remix-run/node";
import { facetsApi } from "~/web/api-endpoints.server";

export function loader({ request }: LoaderFunctionArgs) {
  return facetsApi(request);
}
