import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadSearchExport } from "~/web/exports.server";

export function loader({ request }: LoaderFunctionArgs) {
  return loadSearchExport(request);
}
