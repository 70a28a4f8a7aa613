import { isClosedConnection } from "./closed-connection";
import { traced } from "./trace.server";

/**
 * A pool may hold several kept connections that the server has closed under it (one per request
 * of a burst), and a resend may pick the next of them: a request goes at most this often.
 */
const MAX_TRIES = 3;

/**
 * `fetch`, sent again when a try met a connection the server had closed (at most MAX_TRIES in
 * all), with the request's trace (trace.server.ts). Only for requests that may be repeated (a GET, or a POST its receiver keeps once per id);
 * every try shares `init.signal`, so a timeout stays a hard limit for them all.
 */
export async function fetchAgainOnClosed(input: string | URL, init: RequestInit = {}): Promise<Response> {
  for (let tries = 1; ; tries++) {
    try {
      return await fetch(input, traced(init));
    } catch (error) {
      if (!isClosedConnection(error) || init.signal?.aborted || tries >= MAX_TRIES) throw error;
    }
  }
}
