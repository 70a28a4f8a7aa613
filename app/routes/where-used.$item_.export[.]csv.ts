import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadWhereUsedExport } from "~/web/exports.server";
import { recordingSignals } from "~/web/signals.server";

export function loader(args: LoaderFunctionArgs) {
  return recordingSignals(args, loadWhereUsedExport(args.request, args.context, args.params.item));
}
