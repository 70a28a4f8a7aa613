import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadExternalLink } from "~/web/exports.server";

export function loader({ params }: LoaderFunctionArgs) {
  return loadExternalLink(params.id);
}
