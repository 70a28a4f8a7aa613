import type { LoaderFunctionArgs } from "@remix-run/node";
import { loadPickList } from "~/web/pick-list.server";

export function loader({ request }: LoaderFunctionArgs) {
  return loadPickList(request);
}
