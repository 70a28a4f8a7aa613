import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadWhereUsedExport } from "~/web/exports.server";

export function loader({ request, params }: LoaderFunctionArgs) {
  return loadWhereUsedExport(request, params.item);
}
