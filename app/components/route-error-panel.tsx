import { isRouteErrorResponse, useLocation, useRouteError } from "@remix-run/react";
import { ErrorPanel } from "./error-panel";

/** Error boundary body for pages whose loaders throw `{message, back}` with a status. */
export function RouteErrorPanel({ fallback }: { fallback: string }) {
  const error = useRouteError();
  const location = useLocation();
  const body = isRouteErrorResponse(error) ? (error.data as { message?: string; back?: string } | null) : null;
  return (
    <ErrorPanel
      message={body?.message ?? fallback}
      retryHref={`${location.pathname}${location.search}`}
      backHref={body?.back ?? "/crib-search"}
    />
  );
}
