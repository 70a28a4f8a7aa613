import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { SearchPage } from "~/components/search-page";
import { loadSearchPage, pickHeaders } from "~/web/search-page.server";

/** Home: the search page over every item, with the user's recent searches. */
export function loader({ request }: LoaderFunctionArgs) {
  return loadSearchPage(request, { home: true });
}

export const headers: HeadersFunction = ({ loaderHeaders }) => pickHeaders(loaderHeaders);

export const meta: MetaFunction = () => [{ title: "Crib Search" }];

export default function HomeRoute() {
  const data = useLoaderData<typeof loader>();
  return <SearchPage {...data} />;
}
