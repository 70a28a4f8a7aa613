import type { EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { startUp } from "./start-up.server";
import { inTurn } from "./lib/in-turn.server";
import { setSecurityHeaders } from "./web/security-headers.server";

startUp();

/**
 * Every document is rendered whole, with `renderToString` (docs/decisions/008): a page takes a
 * couple of milliseconds to render, so streaming it would gain nothing, and the streaming renderer
 * with its byte chunks and web stream cost a fifth of a search page's server time. Renders take
 * turns, in the order the pages were asked for (lib/in-turn.server.ts).
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  return inTurn(() => {
    const renderStarted = performance.now();
    const html = renderToString(<RemixServer context={remixContext} url={request.url} />);
    responseHeaders.set("Content-Type", "text/html; charset=utf-8");
    responseHeaders.append("Server-Timing", `render;dur=${(performance.now() - renderStarted).toFixed(1)}`);
    setSecurityHeaders(responseHeaders);
    return new Response(`<!DOCTYPE html>${html}`, { headers: responseHeaders, status: responseStatusCode });
  });
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  console.error(error);
}
