import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { HeadLinesPage } from "~/components/head-lines-page";
import { RouteErrorPanel } from "~/components/route-error-panel";
import { loadHeadLines } from "~/web/head-lines.server";

export function loader({ request, context, params }: LoaderFunctionArgs) {
  return loadHeadLines(request, context, params.head);
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `BOM Lines ${data?.head.number ?? ""} – Crib Search` }];

export default function HeadLinesRoute() {
  const d = useLoaderData<typeof loader>();
  return <HeadLinesPage head={d.head} table={d.table} back={d.back} pageBack={d.pageBack} partsMissing={d.partsMissing} backup={d.backup} />;
}

export function ErrorBoundary() {
  return <RouteErrorPanel fallback="Failed to load BOM data" notFoundTitle="BOM Not Found" />;
}
