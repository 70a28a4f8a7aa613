import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadAnalyticsCsv } from "~/web/analytics.server";

export function loader({ request }: LoaderFunctionArgs) {
  return loadAnalyticsCsv(request);
}
