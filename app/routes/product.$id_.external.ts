import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadExternalLink } from "~/web/exports.server";

export function loader({ request, params }: LoaderFunctionArgs) {
  return loadExternalLink(request, params.id);
}
