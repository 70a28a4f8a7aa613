import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadHeadLinesExport } from "~/web/head-lines.server";

export function loader({ request, context, params }: LoaderFunctionArgs) {
  return loadHeadLinesExport(request, context, params.head);
}
