import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadHeadLinesExport } from "~/web/head-lines.server";

export function loader({ request, params }: LoaderFunctionArgs) {
  return loadHeadLinesExport(request, params.head);
}
