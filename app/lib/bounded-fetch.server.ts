import { fetchAgainOnClosed } from "./closed-connection.server";
import { traced } from "./trace.server";

/** More than any answer the portal's outside services (the identity provider) send it; a larger one is refused. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * One call to an outside service with the process's `fetch` (Node's own, decision 022), its answer
 * read whole (at most MAX_ANSWER_BYTES) before `signal` ends it: a stalled body fails at the time
 * limit like a stalled connection. A GET that meets a connection the server had closed goes again;
 * a POST goes once.
 */
export async function boundedFetch(
  url: string,
  init: { method?: "GET" | "POST"; headers?: Record<string, string>; body?: string },
  signal?: AbortSignal,
): Promise<Response> {
  const method = init.method ?? "GET";
  const request: RequestInit = { method, ...(init.headers ? { headers: init.headers } : {}), ...(init.body === undefined ? {} : { body: init.body }), ...(signal ? { signal } : {}) };
  const response = method === "GET" ? await fetchAgainOnClosed(url, request) : await fetch(url, traced(request));
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    if (!reader) break;
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      void reader.cancel().catch(() => undefined);
      throw new Error(`the answer of ${url} is larger than ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(value);
  }
  const contentType = response.headers.get("content-type");
  const body = [204, 205, 304].includes(response.status) ? null : Buffer.concat(chunks);
  return new Response(body, { status: response.status, headers: contentType ? { "Content-Type": contentType } : {} });
}
