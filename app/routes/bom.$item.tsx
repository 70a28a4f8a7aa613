import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BomPage } from "~/components/bom-pages";
import { RouteErrorPanel } from "~/components/route-error-panel";
import { loadCombinedBom } from "~/web/bom-pages.server";

export function loader({ request, context, params }: LoaderFunctionArgs) {
  return loadCombinedBom(request, context, params.item);
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `BOM ${data?.item ?? ""} – Crib Search` }];

export default function BomRoute() {
  const d = useLoaderData<typeof loader>();
  return <BomPage itemNumber={d.item} title="BOM Details" sections={d.sections} exportLabel="Export BOM" exportHref={d.exportHref} back={d.back} pageBack={d.pageBack} />;
}

export function ErrorBoundary() {
  return <RouteErrorPanel fallback="Failed to load BOM data" />;
}
