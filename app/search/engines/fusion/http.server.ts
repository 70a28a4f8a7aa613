import { randomUUID } from "node:crypto";
import { FusionError, httpError, MESSAGES, transportError } from "./errors";

export interface FusionHttpOptions {
  apiKey?: string;
  timeoutMs: number;
  requestId?: string;
  signal?: AbortSignal;
}

export interface FusionHttpResponse {
  body: unknown;
  headers: Headers;
}

/** The message inside a Solr/Fusion error body: `error.msg`, then `message`, then `details`. */
function errorMessage(text: string, statusText: string): string {
  try {
    const body = JSON.parse(text) as { error?: { msg?: unknown; message?: unknown }; message?: unknown; details?: unknown };
    for (const candidate of [body.error?.msg, body.error?.message, body.message, body.details]) {
      if (typeof candidate === "string" && candidate.trim()) return candidate.trim().slice(0, 300);
    }
  } catch {
    // Not JSON: the status text says enough.
  }
  return statusText || "Error";
}

/**
 * The most an answer may hold once decompressed: far more than any page of results, and a bound
 * on what a broken or hostile answer (a gzip bomb) can make the portal hold in memory.
 */
export const MAX_ANSWER_BYTES = 20 * 1024 * 1024;

/** The body as text, read up to `max` bytes; more is a malformed answer. */
async function readCapped(response: Response, max: number, signal: AbortSignal): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await untilAborted(reader.read(), signal);
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      // Not awaited: a cancel can wait on the transport (up to the timeout) and the answer is refused now.
      void reader.cancel().catch(() => undefined);
      console.warn(`Fusion's answer passed ${max} bytes; read as malformed`);
      throw new FusionError("malformed", MESSAGES.failed);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Redirects followed to the same host (a proxy's move to https, say); another host is refused. */
const MAX_REDIRECTS = 5;

function requestHeaders(options: FusionHttpOptions): Record<string, string> {
  const headers: Record<string, string> = {
    Accept: "application/json",
    "Accept-Encoding": "gzip, deflate, br",
    "User-Agent": "crib-search",
    "X-Request-ID": options.requestId ?? randomUUID(),
  };
  if (options.apiKey) headers["x-api-key"] = options.apiKey;
  return headers;
}

/** The request's own signal, if any, combined with its timeout. */
function withTimeout(options: FusionHttpOptions): { timeout: AbortSignal; signal: AbortSignal } {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  return { timeout, signal: options.signal ? AbortSignal.any([timeout, options.signal]) : timeout };
}

/** A connection the server closed as the request went out on it (a kept one, past its idle time). */
function isClosedConnection(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return code === "UND_ERR_SOCKET" || code === "ECONNRESET";
}

/**
 * Settles with `promise`, or rejects as soon as `signal` aborts: a body that stalls after the
 * headers must not outlive the timeout, whatever the transport does with the signal.
 */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * One GET to Fusion with the API key, an X-Request-ID, and a hard timeout, over Node's `fetch`
 * (its agent keeps connections alive and decompresses answers). Every failure becomes a
 * FusionError carrying the spec's text; nothing of the raw engine error reaches the caller.
 *
 * Redirects are followed by hand, and only on the same host: `fetch` would send the API key to
 * any host a redirect names. The key goes only to Fusion's own origin (scheme, host and port): a
 * hop to another port or scheme of the host is asked without it. A GET that meets a connection
 * the server has just closed is sent once more, since nothing of it was handled.
 */
export async function fusionGet(url: string, options: FusionHttpOptions): Promise<FusionHttpResponse> {
  const { timeout, signal } = withTimeout(options);
  const fail = (error: unknown) => transportError(error, timeout.aborted);
  const withKey = requestHeaders(options);
  const { "x-api-key": _key, ...withoutKey } = withKey;
  const origin = new URL(url).origin;
  const send = async (target: URL): Promise<Response> => {
    const headers = target.origin === origin ? withKey : withoutKey;
    try {
      return await fetch(target, { headers, signal, redirect: "manual" });
    } catch (error) {
      if (!isClosedConnection(error) || signal.aborted) throw error;
      return fetch(target, { headers, signal, redirect: "manual" });
    }
  };

  let target: URL;
  let response: Response;
  try {
    target = new URL(url);
    for (let redirects = 0; ; redirects++) {
      response = await send(target);
      const location = response.headers.get("location");
      if (response.status < 300 || response.status > 399 || location === null) break;
      await response.body?.cancel();
      const next = new URL(location, target);
      if (next.hostname !== target.hostname || redirects >= MAX_REDIRECTS) {
        console.warn(`Fusion answered ${response.status} to ${next.origin}${next.pathname}; not followed`);
        throw httpError(response.status, response.statusText || "Redirect", response.statusText);
      }
      target = next;
    }
  } catch (error) {
    throw error instanceof FusionError ? error : fail(error);
  }

  let text: string;
  try {
    text = await readCapped(response, MAX_ANSWER_BYTES, signal);
  } catch (error) {
    void response.body?.cancel().catch(() => undefined);
    throw error instanceof FusionError ? error : fail(error);
  }
  if (!response.ok) throw httpError(response.status, errorMessage(text, response.statusText), response.statusText);
  try {
    return { body: JSON.parse(text) as unknown, headers: response.headers };
  } catch {
    throw new FusionError("malformed", MESSAGES.failed);
  }
}

/**
 * The status Fusion answers a GET on `url` with (its root, for the readiness check), the body read
 * and dropped so that the connection goes back to the pool; null when nothing answered in time or
 * the request could not be made.
 */
export async function fusionStatus(url: string, options: FusionHttpOptions): Promise<number | null> {
  const { signal } = withTimeout(options);
  try {
    const response = await fetch(url, { headers: requestHeaders(options), signal, redirect: "manual" });
    await untilAborted(response.arrayBuffer(), signal);
    return response.status;
  } catch {
    return null;
  }
}
