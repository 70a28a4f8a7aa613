import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadPickList } from "~/web/pick-list.server";

export function loader({ request, context }: LoaderFunctionArgs) {
  return loadPickList(request, context);
}
