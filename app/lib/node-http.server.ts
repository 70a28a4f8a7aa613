import http from "node:http";
import https from "node:https";

/** More than any answer the portal's outside services (the identity provider, Fusion's signals) send it; a larger one is refused. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * One request with node:http, answered as a buffered `Response`, and ended by `signal` wherever it
 * is (connecting, sending, reading). Not `fetch`: the server runs Remix's fetch (installGlobals),
 * which on an aborted POST cancels the request body's stream while it is locked, and that
 * rejection, handled by no one, ends the worker process (seen with a Fusion and an identity
 * provider that accept the connection and never answer).
 */
export function nodeHttpRequest(
  url: string,
  init: { method?: "GET" | "POST"; headers?: Record<string, string>; body?: string },
  signal?: AbortSignal,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === "https:" ? https.request : http.request;
    const headers = { ...init.headers, ...(init.body === undefined ? {} : { "Content-Length": String(Buffer.byteLength(init.body)) }) };
    const request = send(target, { method: init.method ?? "GET", headers, ...(signal ? { signal } : {}) }, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) request.destroy(new Error(`the answer of ${url} is larger than ${MAX_ANSWER_BYTES} bytes`));
        else chunks.push(chunk);
      });
      response.on("end", () => {
        const contentType = response.headers["content-type"];
        const status = response.statusCode ?? 502;
        // A Response has no body for these statuses, and none below 200.
        const body = [204, 205, 304].includes(status) || status < 200 ? null : Buffer.concat(chunks);
        resolve(new Response(body, { status: Math.max(status, 200), headers: contentType ? { "Content-Type": contentType } : {} }));
      });
      response.on("error", reject);
      response.on("aborted", () => reject(new Error(`the answer of ${url} was cut off`)));
    });
    request.on("error", reject);
    request.end(init.body);
  });
}
