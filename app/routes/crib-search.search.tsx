import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { SearchPage } from "~/components/search-page";
import { loadSearchPage, pickHeaders } from "~/web/search-page.server";

export function loader({ request }: LoaderFunctionArgs) {
  return loadSearchPage(request);
}

export const headers: HeadersFunction = ({ loaderHeaders }) => pickHeaders(loaderHeaders);

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const query = data?.view?.query;
  return [{ title: query ? `${query} – Crib Search` : "Search – Crib Search" }];
};

export default function SearchRoute() {
  const data = useLoaderData<typeof loader>();
  return <SearchPage {...data} recentSearches={[]} />;
}
