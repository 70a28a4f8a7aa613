import { isRouteErrorResponse, useLocation, useRouteError } from "@remix-run/react";
import { HOME_PATH } from "~/search/paths";
import { ErrorPanel } from "./error-panel";
import { ErrorScreen } from "./error-screen";

/** What the page loaders throw with their status (app/web): the message, the way back, and a title for "not found". */
export interface RouteProblem {
  message?: string;
  back?: string;
  notFound?: boolean;
  /** For a thing that does not exist: the search for the text asked for. */
  search?: { query: string; href: string };
  /** A page that has what was asked for in another form (a component's Where Used for its BOM). */
  related?: { label: string; href: string };
}

/**
 * The error boundary of the item, BOM and Where Used pages. `notFoundTitle` heads an answer that
 * says the thing does not exist. What no loader meant to answer (an exception, a render error) gets
 * the spec's error screen, as on every other page.
 */
export function RouteErrorPanel({ fallback, notFoundTitle }: { fallback: string; notFoundTitle?: string }) {
  const error = useRouteError();
  const location = useLocation();
  if (!isRouteErrorResponse(error)) return <ErrorScreen />;
  const body = error.data as RouteProblem | null;
  // Trying again cannot find what does not exist: a search for it can.
  return (
    <ErrorPanel
      {...(body?.notFound && notFoundTitle ? { title: notFoundTitle } : {})}
      message={body?.message ?? fallback}
      {...(body?.search ? {} : { retryHref: `${location.pathname}${location.search}` })}
      {...(body?.search ? { search: body.search } : {})}
      {...(body?.related ? { related: body.related } : {})}
      backHref={body?.back ?? HOME_PATH}
    />
  );
}
