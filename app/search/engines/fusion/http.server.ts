import { randomUUID } from "node:crypto";
import http from "node:http";
import https from "node:https";
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

/**
 * The request itself, over Node's own HTTP client: the answer is read as bytes and parsed once,
 * without the web streams that `fetch` builds for every response. The global agents keep
 * connections alive (and drop them before the server's announced keep-alive timeout). Aborting
 * `signal` destroys the request, and with it a body that stalls after the headers.
 */
function getJson(url: string, options: FusionHttpOptions, timeout: AbortSignal): Promise<FusionHttpResponse> {
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const headers: Record<string, string> = {
    Accept: "application/json",
    "X-Request-ID": options.requestId ?? randomUUID(),
  };
  if (options.apiKey) headers["x-api-key"] = options.apiKey;
  return new Promise<FusionHttpResponse>((resolve, reject) => {
    const fail = (error: unknown) => reject(transportError(error, timeout.aborted));
    let target: URL;
    try {
      target = new URL(url);
    } catch (error) {
      return fail(error);
    }
    const get = target.protocol === "https:" ? https.get : http.get;
    const request = get(target, { headers, signal }, (response) => {
      const parts: Buffer[] = [];
      response.on("data", (part: Buffer) => parts.push(part));
      response.on("error", fail);
      response.on("end", () => {
        const text = Buffer.concat(parts).toString("utf8");
        const status = response.statusCode ?? 0;
        const statusText = response.statusMessage ?? "";
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
      });
    });
    request.on("error", fail);
  });
}
