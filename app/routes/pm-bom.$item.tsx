import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BomPage } from "~/components/bom-pages";
import { RouteErrorPanel } from "~/components/route-error-panel";
import { loadSingleBom } from "~/web/bom-pages.server";

export function loader({ request, context, params }: LoaderFunctionArgs) {
  return loadSingleBom(request, context, params.item, "pm");
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `PM BOM ${data?.item ?? ""} – Crib Search` }];

export default function PMBomRoute() {
  const d = useLoaderData<typeof loader>();
  return <BomPage itemNumber={d.item} title="PM BOM" sections={d.sections} exportLabel="Export PM BOM" exportHref={d.exportHref} back={d.back} pageBack={d.pageBack} />;
}

export function ErrorBoundary() {
  return <RouteErrorPanel fallback="Failed to load PM BOM data" />;
}
