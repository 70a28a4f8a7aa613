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
 * Settles with `promise`, or rejects as soon as `signal` aborts: a body that stalls after the
 * headers must not outlive the timeout, whatever the HTTP client does with the signal.
 */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
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
    return await fetchJson(url, options, timeout.signal);
  } finally {
    clearTimeout(timer);
  }
}

async function fetchJson(url: string, options: FusionHttpOptions, timeout: AbortSignal): Promise<FusionHttpResponse> {
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const headers: Record<string, string> = {
    Accept: "application/json",
    "X-Request-ID": options.requestId ?? randomUUID(),
  };
  if (options.apiKey) headers["x-api-key"] = options.apiKey;
  let response: Response;
  try {
    response = await fetch(url, { headers, signal });
  } catch (error) {
    throw transportError(error, timeout.aborted);
  }
  let text: string;
  try {
    text = await untilAborted(response.text(), signal);
  } catch (error) {
    void response.body?.cancel().catch(() => undefined);
    throw transportError(error, timeout.aborted);
  }
  if (!response.ok) throw httpError(response.status, errorMessage(text, response.statusText), response.statusText);
  try {
    return { body: JSON.parse(text) as unknown, headers: response.headers };
  } catch {
    throw new FusionError("malformed", MESSAGES.failed);
  }
}
