import type { AppLoadContext } from "@remix-run/node";
import { HttpError, requestIdOf } from "~/web/http.server";
import { SearchError } from "~/search/errors";
import { requireApiUser } from "./sign-in.server";

/** JSON answer of the backend API: `{"data": …}` with the request id echoed. */
export function apiData(data: unknown, requestId: string, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("X-Request-ID", requestId);
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
  return new Response(JSON.stringify({ data }), { ...init, headers });
}

/**
 * `{"error": {message, status, requestId}}` answered with HTTP `status`. `reported` is the status
 * the error carries when it differs: a backend that never answered is status 0 (spec §8), which
 * no HTTP answer can have, so the answer is 503 and the envelope says 0.
 */
export function apiError(message: string, status: number, requestId: string, reported = status): Response {
  return new Response(JSON.stringify({ error: { message, status: reported, requestId } }), {
    status,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "X-Request-ID": requestId,
      "Cache-Control": "no-store",
    },
  });
}

/**
 * Runs an API handler and turns every failure into the `{"error": …}` wrapper: known errors keep their
 * status and message, anything else is logged and answered with a plain 500 (no stack, no
 * engine text).
 */
export async function handleApi(
  request: Request,
  loadContext: AppLoadContext,
  handler: (context: { requestId: string; url: URL }) => Promise<Response> | Response,
  options: { public?: boolean } = {},
): Promise<Response> {
  const requestId = requestIdOf(request, loadContext);
  try {
    // With sign-in on, the API answers only a signed-in browser; the probes answer anyone.
    if (!options.public) await requireApiUser(request, loadContext);
    return await handler({ requestId, url: new URL(request.url) });
  } catch (error) {
    if (error instanceof Response) return error;
    // Nobody waits for the answer of a request its client went away from: it did not fail.
    if (request.signal.aborted) {
      console.info(`[${requestId}] API request abandoned by the client`);
      return apiError("Request aborted", 499, requestId);
    }
    if (error instanceof HttpError) return apiError(error.message, error.status, requestId);
    if (error instanceof SearchError && error.kind === "bad-request") {
      console.warn(`[${requestId}] search refused: ${JSON.stringify(error.message)}`);
      return apiError("Search failed", 400, requestId);
    }
    if (error instanceof SearchError && error.isOutage) {
      console.error(`[${requestId}] search unavailable: ${JSON.stringify(error.message)}`);
      return apiError(error.message, 503, requestId, error.status);
    }
    console.error(`[${requestId}] API error`, error);
    return apiError("An error occurred", 500, requestId);
  }
}
