import { isRouteErrorResponse, useLocation, useRouteError } from "@remix-run/react";
import { HOME_PATH } from "~/search/paths";
import { ErrorPanel } from "./error-panel";

/** What the page loaders throw with their status (app/web): the message, the way back, and a title for "not found". */
export interface RouteProblem {
  message?: string;
  back?: string;
  notFound?: boolean;
}

/**
 * The error boundary of the item, BOM and Where Used pages. `notFoundTitle` heads an answer that
 * says the thing does not exist.
 */
export function RouteErrorPanel({ fallback, notFoundTitle }: { fallback: string; notFoundTitle?: string }) {
  const error = useRouteError();
  const location = useLocation();
  const body = isRouteErrorResponse(error) ? (error.data as RouteProblem | null) : null;
  return (
    <ErrorPanel
      {...(body?.notFound && notFoundTitle ? { title: notFoundTitle } : {})}
      message={body?.message ?? fallback}
      retryHref={`${location.pathname}${location.search}`}
      backHref={body?.back ?? HOME_PATH}
    />
  );
}
