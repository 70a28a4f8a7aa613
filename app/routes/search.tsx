import { redirect, type LoaderFunctionArgs } from "@remix-run/node";

/** Old and short links: /search keeps its query string. */
export function loader({ request }: LoaderFunctionArgs) {
  return redirect(`/crib-search/search${new URL(request.url).search}`);
}
