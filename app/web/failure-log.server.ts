import { SearchError } from "~/search/errors";

/**
 * Logs a request's failure to get its data. A known search error (its message is the spec's text
 * the user sees) takes one line; anything unexpected is logged with its stack. A request the client
 * went away from did not fail: nobody waits for its page.
 */
export function logFailure(what: string, error: unknown, context: { requestId: string; signal?: AbortSignal }): void {
  if (context.signal?.aborted) console.info(`[${context.requestId}] ${what} abandoned by the client`);
  // Quoted: the message may repeat what the user typed, or a remote server's text, and must not
  // start a line of its own in the log.
  else if (error instanceof SearchError) console.warn(`[${context.requestId}] ${what} failed: ${JSON.stringify(error.detail ?? error.message)}`);
  else console.error(`[${context.requestId}] ${what} failed`, error);
}
