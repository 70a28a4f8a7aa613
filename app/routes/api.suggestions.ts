import type { LoaderFunctionArgs } from "@remix-run/node";
import { suggestionsApi } from "~/web/api-endpoints.server";

export function loader({ request, context }: LoaderFunctionArgs) {
  return suggestionsApi(request, context);
}
