import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadExternalLink } from "~/web/exports.server";
import { recordingSignals } from "~/web/page-signals.server";

export function loader(args: LoaderFunctionArgs) {
  return recordingSignals(args, loadExternalLink(args.request, args.context, args.params.id));
}
