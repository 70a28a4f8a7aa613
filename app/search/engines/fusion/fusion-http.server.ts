import { randomUUID } from "node:crypto";
import { errorCodes } from "~/lib/closed-connection";
import { fetchAgainOnClosed } from "~/lib/closed-connection.server";
import { metrics } from "~/lib/metrics.server";
import { FusionError, httpError, MESSAGES, transportError } from "./fusion-errors";

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


/** What went wrong, for operators: the status, or the transport's error code (never a body). */
function causeOf(error: unknown, timedOut: boolean): string {
  if (timedOut) return "timeout";
  if (error instanceof FusionError) return error.httpStatus !== undefined ? `HTTP ${error.httpStatus}` : error.reason;
  return errorCodes(error)[0] ?? (error instanceof Error ? error.name : "error");
}

/** The address as a log may show it: no user or password, no query string past a sensible length. */
export function loggableUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    const text = parsed.toString();
    return text.length > 300 ? `${text.slice(0, 300)}…` : text;
  } catch {
    return "(not a URL)";
  }
}

/**
 * Gives a failure its diagnosis for the log (FusionError.detail): the request id, the address
 * without credentials, the status or the transport's code, and the time taken. The API key travels
 * in a header and Fusion's body is never quoted (the user's form of the message: `HTTP 503:
 * Service Unavailable`), so neither can reach the log.
 */
function diagnosed(error: FusionError, cause: string, url: string, started: number, requestId: string): FusionError {
  error.detail = `${error.userMessage} [${cause}; GET ${loggableUrl(url)}; ${Math.round(performance.now() - started)} ms; request ${requestId}]`;
  return error;
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

/** One GET, sent again when a try met a connection the server had just closed (fetchAgainOnClosed). */
const send = (target: URL, headers: Record<string, string>, signal: AbortSignal) => fetchAgainOnClosed(target, { headers, signal, redirect: "manual" });

/**
 * The answer to a GET of `url`, redirects followed by hand and only on the same host: `fetch`
 * would send the API key to any host a redirect names. The key (and the user and password of the
 * address, if it has them) goes only to Fusion's own origin (scheme, host and port): a hop to
 * another port or scheme of the host is asked without it.
 */
async function getFollowing(url: string, options: FusionHttpOptions, signal: AbortSignal): Promise<Response> {
  let target = new URL(url);
  const withKey = requestHeaders(options);
  // `fetch` refuses an address with credentials in it: they go as Basic authentication instead.
  if (target.username || target.password) {
    const credentials = `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`;
    withKey.Authorization = `Basic ${Buffer.from(credentials).toString("base64")}`;
    target.username = "";
    target.password = "";
  }
  const { "x-api-key": _key, Authorization: _authorization, ...withoutKey } = withKey;
  const origin = target.origin;
  for (let redirects = 0; ; redirects++) {
    const response = await send(target, target.origin === origin ? withKey : withoutKey, signal);
    const location = response.headers.get("location");
    if (response.status < 300 || response.status > 399 || location === null) return response;
    await response.body?.cancel();
    const next = new URL(location, target);
    if (next.hostname !== target.hostname || redirects >= MAX_REDIRECTS) {
      console.warn(`Fusion answered ${response.status} to ${next.origin}${next.pathname}; not followed`);
      throw httpError(response.status, response.statusText || "Redirect", response.statusText);
    }
    target = next;
  }
}

/**
 * One GET to Fusion with the API key, an X-Request-ID, and a hard timeout, over Node's `fetch`
 * (its agent keeps connections alive and decompresses answers). Every failure becomes a
 * FusionError carrying the spec's text, with a diagnosis for the log in `detail`; nothing of the
 * raw engine error reaches the caller.
 */
export function fusionGet(url: string, options: FusionHttpOptions): Promise<FusionHttpResponse> {
  return measured(getOnce(url, options));
}

/** A call's outcome and latency in the metrics (crib_fusion_request_duration_seconds). */
async function measured<T>(call: Promise<T>): Promise<T> {
  const timer = metrics.fusion.startTimer();
  try {
    const value = await call;
    timer({ outcome: "ok" });
    return value;
  } catch (error) {
    timer({ outcome: error instanceof FusionError ? (error.reason === "http" ? `http_${error.httpStatus ?? "error"}` : error.reason) : "error" });
    throw error;
  }
}

async function getOnce(url: string, options: FusionHttpOptions): Promise<FusionHttpResponse> {
  const started = performance.now();
  const requestId = options.requestId ?? randomUUID();
  // The page's time for the platform is up (RequestContext.deadline): nothing is sent.
  if (options.timeoutMs <= 0) throw diagnosed(new FusionError("timeout", MESSAGES.timeout), "deadline passed", url, started, requestId);
  const { timeout, signal } = withTimeout(options);
  const fail = (error: unknown): FusionError => {
    const fusionError = error instanceof FusionError ? error : transportError(error, timeout.aborted);
    return diagnosed(fusionError, causeOf(error, timeout.aborted), url, started, requestId);
  };

  let response: Response;
  let text: string;
  try {
    response = await getFollowing(url, { ...options, requestId }, signal);
  } catch (error) {
    throw fail(error);
  }
  try {
    text = await readCapped(response, MAX_ANSWER_BYTES, signal);
  } catch (error) {
    void response.body?.cancel().catch(() => undefined);
    throw fail(error);
  }
  if (!response.ok) throw fail(httpError(response.status, errorMessage(text, response.statusText), response.statusText));
  try {
    return { body: JSON.parse(text) as unknown, headers: response.headers };
  } catch {
    throw fail(new FusionError("malformed", MESSAGES.failed));
  }
}

/**
 * The status Fusion answers a GET on `url` with (its root, for the health check), through the same
 * client as every other call (redirects, the retry of a closed connection, the timeout); the body
 * is read and dropped so that the connection goes back to the pool. A failure to get any answer is
 * thrown as fusionGet throws it.
 */
export function fusionStatus(url: string, options: FusionHttpOptions): Promise<number> {
  return measured(statusOnce(url, options));
}

async function statusOnce(url: string, options: FusionHttpOptions): Promise<number> {
  const started = performance.now();
  const requestId = options.requestId ?? randomUUID();
  const { timeout, signal } = withTimeout(options);
  try {
    const response = await getFollowing(url, { ...options, requestId }, signal);
    await untilAborted(response.arrayBuffer(), signal);
    return response.status;
  } catch (error) {
    const fusionError = error instanceof FusionError ? error : transportError(error, timeout.aborted);
    throw diagnosed(fusionError, causeOf(error, timeout.aborted), url, started, requestId);
  }
}
