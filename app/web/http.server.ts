import { randomUUID } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import { type z } from "zod";
import { services } from "~/registry.server";
import type { RequestContext } from "~/search/engine";
import { FORM_MAX_BYTES } from "./envelope.server";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-ID when it is a sane token, else a new one: how scripts/server.mjs names a request. */
export function requestIdFrom(given: string | null | undefined): string {
  return given && REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * The request's id: the one the server gave it (the load context's), which its answer and the log
 * line name; for a request that did not come through the server, its own X-Request-ID when sane.
 */
export function requestIdOf(request: Request, context: AppLoadContext): string {
  return context.requestId ?? requestIdFrom(request.headers.get("x-request-id"));
}

/**
 * The context of a page's calls to the engines: its request id, the client's signal, and one
 * deadline for all its calls to the search platform (FUSION_TIMEOUT_MS from now), so a page that
 * makes two calls to a slow platform waits one timeout before the backup answers, not two.
 */
export function pageContext(request: Request, loadContext: AppLoadContext): RequestContext & { requestId: string } {
  const timeoutMs = services().config.fusion?.timeoutMs;
  return { requestId: requestIdOf(request, loadContext), signal: request.signal, ...(timeoutMs ? { deadline: Date.now() + timeoutMs } : {}) };
}

/** A failure with the status and the message a user may read. */
export class HttpError extends Error {
  override name = "HttpError";
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function badRequest(message: string): HttpError {
  return new HttpError(400, message);
}

export function notFound(message: string): HttpError {
  return new HttpError(404, message);
}

/** "q: too long; rows: expected a number" from a zod error. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message))
    .join("; ");
}

/** Query parameters as an object; repeated names keep their last value. */
function queryObject(url: URL): Record<string, string> {
  return Object.fromEntries(url.searchParams.entries());
}

const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;

/**
 * The body of a form post. Anything else (JSON, XML, no Content-Type, a broken multipart body) is
 * answered 400 with a message, never the parser's TypeError: the portal's forms always send one
 * of the two form types, so another body is a scanner or a mistake, not a user to help.
 */
export async function readForm(request: Request): Promise<FormData> {
  const unreadable = () =>
    new Response(JSON.stringify({ message: "This form could not be read. Go back to the page and try again." }), {
      status: 400,
      headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
    });
  // No body at all, whatever its type says, is an empty form: a logout without one answers as a
  // logout does (issue 29), a body that is something else is refused (issue 28).
  const body = await readBoundedBytes(request, FORM_MAX_BYTES).catch(() => Buffer.from("x"));
  if (body === null) {
    throw new Response(JSON.stringify({ message: "This form is larger than the portal accepts. Go back to the page and try again." }), {
      status: 413,
      headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", Connection: "close" },
    });
  }
  if (body.byteLength === 0) return new FormData();
  const type = request.headers.get("Content-Type") ?? "";
  if (!FORM_TYPES.test(type)) throw unreadable();
  try {
    return await new Response(new Uint8Array(body), { headers: { "Content-Type": type } }).formData();
  } catch {
    throw unreadable();
  }
}

/**
 * The body, refused (null) once it grows past `max` bytes however it is sent (a Content-Length
 * over it, or a chunked body that runs past it): nothing past the bound is held in memory.
 */
export async function readBoundedBytes(request: Request, max: number): Promise<Buffer | null> {
  if (Number(request.headers.get("Content-Length") ?? "0") > max) return null;
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      // Not cancelled: that would end the connection before the refusal is sent. Nothing more is
      // read; the answer closes the connection.
      reader.releaseLock();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The body as UTF-8 text, or null past `max` bytes (readBoundedBytes). */
export async function readBoundedText(request: Request, max: number): Promise<string | null> {
  return (await readBoundedBytes(request, max))?.toString("utf8") ?? null;
}

export function parseQuery<S extends z.ZodType>(schema: S, url: URL): z.infer<S> {
  const result = schema.safeParse(queryObject(url));
  if (!result.success) throw badRequest(describeZodError(result.error));
  return result.data;
}
