import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";

/**
 * W3C Trace Context: the trace a request belongs to, taken from its `traceparent` header when it
 * has a valid one (a proxy or a caller that traces), else begun here, and passed on with every
 * call the request makes to Fusion or the identity provider, so that their logs and the portal's
 * name the same trace. The request's context is kept in AsyncLocalStorage by the HTTP server.
 */
export interface Trace {
  traceId: string;
  /** This request's own span, the parent of the calls it makes. */
  spanId: string;
  flags: string;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const hex = (bytes: number) => randomBytes(bytes).toString("hex");
const allZero = (text: string) => /^0+$/.test(text);

/** The trace of a request with this `traceparent` header: continued when valid, else a new one. */
export function traceOf(header: string | undefined): Trace {
  const match = TRACEPARENT.exec(header?.trim().toLowerCase() ?? "");
  if (match && !allZero(match[1]!) && !allZero(match[2]!)) return { traceId: match[1]!, spanId: hex(8), flags: match[3]! };
  return { traceId: hex(16), spanId: hex(8), flags: "01" };
}

export const traceparentOf = (trace: Trace) => `00-${trace.traceId}-${trace.spanId}-${trace.flags}`;

const current = new AsyncLocalStorage<Trace>();

/** Runs `work` (and whatever it starts) in `trace`. */
export function inTrace<T>(trace: Trace, work: () => T): T {
  return current.run(trace, work);
}

/** The headers an outgoing call adds for the trace it is made in; none outside a request. */
export function traceHeaders(): Record<string, string> {
  const trace = current.getStore();
  return trace ? { traceparent: traceparentOf(trace) } : {};
}

/** `init` with the trace's headers added (a header the caller set wins). */
export function traced(init: RequestInit = {}): RequestInit {
  const extra = traceHeaders();
  if (!extra.traceparent) return init;
  const headers = new Headers(init.headers);
  if (!headers.has("traceparent")) headers.set("traceparent", extra.traceparent);
  return { ...init, headers };
}
