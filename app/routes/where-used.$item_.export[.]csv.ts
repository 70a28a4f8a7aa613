import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadWhereUsedExport } from "~/web/exports.server";
import { recordingSignals } from "~/web/page-signals.server";

export function loader(args: LoaderFunctionArgs) {
  return recordingSignals(args, loadWhereUsedExport(args.request, args.params.item));
}
