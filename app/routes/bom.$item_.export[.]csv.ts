import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadBomExport } from "~/web/exports.server";
import { recordingSignals } from "~/web/page-signals.server";

export function loader(args: LoaderFunctionArgs) {
  return recordingSignals(args, loadBomExport(args.request, args.context, args.params.item, "bom"));
}
