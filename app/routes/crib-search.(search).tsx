import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { downloadRefresh } from "~/components/download-started";
import { SearchPage } from "~/components/search-page";
import { HOME_PATH } from "~/search/paths";
import { loadSearchPage, pickHeaders } from "~/web/search-page.server";
import { recordingSignals } from "~/web/page-signals.server";

/**
 * The home page (`/crib-search`: every item, with the user's recent searches) and the results page
 * (`/crib-search/search?q=…`). One route module for both: the browser fetches one script for the
 * two, and going from one to the other keeps the page mounted.
 */
export function loader(args: LoaderFunctionArgs) {
  return recordingSignals(args, loadSearchPage(args.request, args.context, { home: isHome(new URL(args.request.url).pathname) }));
}

function isHome(pathname: string): boolean {
  return pathname.replace(/\/$/, "") === HOME_PATH;
}

export const headers: HeadersFunction = ({ loaderHeaders }) => pickHeaders(loaderHeaders);

export const meta: MetaFunction<typeof loader> = ({ data, location }) => {
  if (isHome(location.pathname)) return [{ title: "Crib Search" }];
  const query = data?.view?.query;
  const started = data && "exportStarted" in data ? data.exportStarted : null;
  return [{ title: query ? `${query} – Crib Search` : "Search – Crib Search" }, ...downloadRefresh(started)];
};

export default function SearchRoute() {
  const data = useLoaderData<typeof loader>();
  return <SearchPage {...data} />;
}
