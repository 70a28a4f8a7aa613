import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadBomExport } from "~/web/exports.server";

export function loader({ request, params }: LoaderFunctionArgs) {
  return loadBomExport(request, params.item);
}
