import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { SEARCH_PATH } from "~/search/paths";

/** Old and short links: /search keeps its query string. */
export function loader({ request }: LoaderFunctionArgs) {
  return redirect(`${SEARCH_PATH}${new URL(request.url).search}`);
}
