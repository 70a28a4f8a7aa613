import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { startUp } from "./start-up.server";
import { inTurn } from "./lib/in-turn.server";
import { log } from "./lib/log.server";
import { NonceContext } from "./components/nonce";
import { PreferencesContext } from "./components/preferences";
import { readPreferences } from "./web/preferences.server";

// The HTTP server's envelope (scripts/server.mjs) comes from this build, with the app's settings.
export { serverEnvelope } from "./web/server-envelope.server";

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
  loadContext: AppLoadContext,
) {
  // The server's nonce for this answer, whose Content-Security-Policy header names it.
  const nonce = loadContext?.cspNonce;
  // The theme and lite mode even when the root loader could not answer (its error boundary renders the layout too).
  return readPreferences(request).then((preferences) =>
    inTurn(() => {
      const renderStarted = performance.now();
      const html = renderToString(
        <NonceContext.Provider value={nonce}>
          <PreferencesContext.Provider value={preferences}>
            <RemixServer context={remixContext} url={request.url} nonce={nonce} />
          </PreferencesContext.Provider>
        </NonceContext.Provider>,
      );
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      // A page that says "for a moment" (sign-in unavailable, a provider not answering) is never
      // kept by a cache, and tells a client when to try again; its loader's headers do not reach
      // the error boundary's document.
      if (responseStatusCode === 503) {
        responseHeaders.set("Cache-Control", "no-store");
        if (!responseHeaders.has("Retry-After")) responseHeaders.set("Retry-After", "30");
      }
      responseHeaders.append("Server-Timing", `render;dur=${(performance.now() - renderStarted).toFixed(1)}`);
      return new Response(`<!DOCTYPE html>${html}`, { headers: responseHeaders, status: responseStatusCode });
    }),
  );
}

export function handleError(error: unknown, { request, context }: { request: Request; context: AppLoadContext }) {
  if (request.signal.aborted) return;
  log.error({ err: error, requestId: context.requestId ?? request.headers.get("x-request-id") ?? undefined, path: new URL(request.url).pathname }, "request failed");
}
