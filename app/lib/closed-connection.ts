/**
 * Connections a server closes under a request: a kept connection past the server's idle time, or
 * one an HTTP/1.0-style server or a proxy closes after every answer. Nothing of a request sent on
 * such a connection was handled, so it may go again, on another connection.
 */

/** Every `code` on an error and its causes: Node's `fetch` puts the socket's code on `cause`, other clients on the error. */
export function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let cause: unknown = error;
  for (let depth = 0; cause && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string") codes.push(code);
    cause = (cause as { cause?: unknown }).cause;
  }
  return codes;
}

const CLOSED_CONNECTION_CODES = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED"]);

/** A request that met a connection the server had closed, by the socket's code wherever the client puts it, or by Node's texts for it. */
export function isClosedConnection(error: unknown): boolean {
  if (errorCodes(error).some((code) => CLOSED_CONNECTION_CODES.has(code))) return true;
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (/socket hang up|other side closed/i.test(cause.message)) return true;
  }
  return false;
}
