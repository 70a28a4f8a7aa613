import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadAnalyticsCsv } from "~/web/analytics.server";

export function loader({ request, context }: LoaderFunctionArgs) {
  return loadAnalyticsCsv(request, context);
}
