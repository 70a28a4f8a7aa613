import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadSearchExport } from "~/web/exports.server";
import { recordingSignals } from "~/web/page-signals.server";

export function loader(args: LoaderFunctionArgs) {
  return recordingSignals(args, loadSearchExport(args.request, args.context));
}
