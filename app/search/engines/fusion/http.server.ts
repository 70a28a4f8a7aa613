import { randomUUID } from "node:crypto";
import http from "node:http";
import https from "node:https";
import zlib from "node:zlib";
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
 * One GET to Fusion with the API key, an X-Request-ID, and a hard timeout. Every failure becomes a
 * FusionError carrying the spec's text; nothing of the raw engine error reaches the caller.
 */
export async function fusionGet(url: string, options: FusionHttpOptions): Promise<FusionHttpResponse> {
  // A timer of our own rather than AbortSignal.timeout: it is cleared as soon as the answer is in,
  // instead of living on for the whole timeout (30 s by default) after every request.
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new DOMException("The operation timed out.", "TimeoutError")), options.timeoutMs);
  try {
    return await getJson(url, options, timeout.signal);
  } finally {
    clearTimeout(timer);
  }
}

/** Redirects followed to the same host (a proxy's move to https, say); another host is refused. */
const MAX_REDIRECTS = 5;

/** The body's bytes, decompressed as its Content-Encoding says. */
function decoded(body: Buffer, encoding: string | undefined): Promise<Buffer> {
  const unzip =
    encoding === "gzip" || encoding === "x-gzip"
      ? zlib.gunzip
      : encoding === "deflate"
        ? zlib.inflate
        : encoding === "br"
          ? zlib.brotliDecompress
          : null;
  if (unzip === null) return Promise.resolve(body);
  return new Promise((resolve, reject) => unzip(body, (error, result) => (error ? reject(error) : resolve(result))));
}

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

/**
 * The status Fusion answers a GET on `url` with (its root, for the readiness check), the body read
 * and dropped so that the connection goes back to the pool; null when nothing answered in time or
 * the request could not be made.
 */
export function fusionStatus(url: string, options: FusionHttpOptions): Promise<number | null> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  return new Promise((resolve) => {
    try {
      const target = new URL(url);
      const get = target.protocol === "https:" ? https.get : http.get;
      get(target, { headers: requestHeaders(options), signal }, (response) => {
        response.on("error", () => resolve(null));
        response.on("end", () => resolve(response.statusCode ?? null));
        response.resume();
      }).on("error", () => resolve(null));
    } catch {
      resolve(null);
    }
  });
}

/**
 * The request itself, over Node's own HTTP client: the answer is read as bytes and parsed once,
 * without the web streams that `fetch` builds for every response. The global agents keep
 * connections alive (and drop them before the server's announced keep-alive timeout); a request
 * on a kept connection that the server had just closed is sent once more on a new one. Aborting
 * `signal` destroys the request, and with it a body that stalls after the headers.
 */
function getJson(url: string, options: FusionHttpOptions, timeout: AbortSignal): Promise<FusionHttpResponse> {
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const headers = requestHeaders(options);
  const fail = (error: unknown) => transportError(error, timeout.aborted);

  const attempt = (target: URL, redirects: number, retried: boolean): Promise<FusionHttpResponse> =>
    new Promise<FusionHttpResponse>((resolve, reject) => {
      const onAnswer = (response: http.IncomingMessage) => {
        const status = response.statusCode ?? 0;
        const statusText = response.statusMessage ?? "";
        const location = response.headers.location;
        if (status >= 300 && status < 400 && location) {
          response.resume();
          const next = new URL(location, target);
          if (next.hostname !== target.hostname || redirects >= MAX_REDIRECTS) {
            console.warn(`Fusion answered ${status} to ${next.origin}${next.pathname}; not followed`);
            return reject(httpError(status, statusText || "Redirect", statusText));
          }
          return resolve(attempt(next, redirects + 1, retried));
        }
        const parts: Buffer[] = [];
        response.on("data", (part: Buffer) => parts.push(part));
        response.on("error", (error) => reject(fail(error)));
        response.on("end", () => {
          decoded(Buffer.concat(parts), response.headers["content-encoding"]).then(
            (body) => {
              const text = body.toString("utf8");
              if (status < 200 || status > 299) return reject(httpError(status, errorMessage(text, statusText), statusText));
              const answerHeaders = new Headers();
              for (const [name, value] of Object.entries(response.headers)) {
                if (typeof value === "string") answerHeaders.set(name, value);
              }
              try {
                resolve({ body: JSON.parse(text) as unknown, headers: answerHeaders });
              } catch {
                reject(new FusionError("malformed", MESSAGES.failed));
              }
            },
            () => reject(new FusionError("malformed", MESSAGES.failed)),
          );
        });
      };
      let request: http.ClientRequest;
      try {
        const get = target.protocol === "https:" ? https.get : http.get;
        request = get(target, { headers, signal }, onAnswer);
      } catch (error) {
        // A value no header may hold, a scheme Node does not speak: nothing was sent.
        return reject(fail(error));
      }
      request.on("error", (error: NodeJS.ErrnoException) => {
        if (request.reusedSocket && error.code === "ECONNRESET" && !retried && !signal.aborted) {
          return resolve(attempt(target, redirects, true));
        }
        reject(fail(error));
      });
    });

  let target: URL;
  try {
    target = new URL(url);
  } catch (error) {
    return Promise.reject(fail(error));
  }
  return attempt(target, 0, false);
}
