/**
 * The empty document of `npm run bench:overhead`: a page of this app (the root layout, its header,
 * footer and scripts) whose loader makes the search page's Fusion call through the same service
 * and whose body shows one number. Loaded like the search page, it measures what the stack (HTTP,
 * remix-serve, Remix, the Fusion client, a document) costs before any of the search page's own
 * content. Only the benchmark's own build has it (bench/build-config.js).
 */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { resultsRequestOf } from "~/search/request";
import { services } from "~/registry.server";
import { parseSearchParams } from "~/search/state";

export async function loader({ request }: LoaderFunctionArgs) {
  const { search: service, searchConfig } = services();
  const state = parseSearchParams(new URL(request.url).searchParams, searchConfig);
  const answer = await service.search(resultsRequestOf(state, searchConfig), { signal: request.signal });
  return json({ total: answer.value.total, engine: answer.engine });
}

export default function EmptyDocument() {
  const { total, engine } = useLoaderData<typeof loader>();
  return <p>{`${total} items from ${engine}`}</p>;
}
