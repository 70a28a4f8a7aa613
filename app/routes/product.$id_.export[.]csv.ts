import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadProductExport } from "~/web/exports.server";
import { recordingSignals } from "~/web/page-signals.server";

export function loader(args: LoaderFunctionArgs) {
  return recordingSignals(args, loadProductExport(args.request, args.context, args.params.id));
}
