import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadProductExport } from "~/web/exports.server";

export function loader({ request, params }: LoaderFunctionArgs) {
  return loadProductExport(request, params.id);
}
