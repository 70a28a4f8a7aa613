/**
 * How the stand-in misbehaves when told to: the faults (latency, a fixed answer time, error
 * statuses, malformed JSON, connection resets, hangs) and the habits of real servers and proxies
 * in keeping connections and sending bodies, with the checks of what `setFault`, `setHabits` and
 * the control API accept.
 */
import http from "node:http";
import type { Socket } from "node:net";
import zlib from "node:zlib";

export type Fault =
  | { kind: "none" }
  | { kind: "latency"; ms: number }
  /** Every answer leaves exactly `ms` after its request arrived, the stand-in's own work included. */
  | { kind: "fixed"; ms: number }
  | { kind: "status"; status: number; body?: string }
  | { kind: "malformed" }
  | { kind: "reset" }
  | { kind: "hang" };

/** How long after its answer a `close-after-answer` connection is ended. */
const CLOSE_LAG_MS = 50;

/**
 * How the stand-in keeps connections and sends bodies, as real servers and proxies do:
 * - `connection`: `keep-alive` (Node's default); `close-after-answer` closes the connection after
 *   each answer without saying so (an HTTP/1.0-style server, a proxy with a short idle time): a
 *   moment after the answer (CLOSE_LAG_MS) the connection is ended, and a request that reaches it
 *   in between is dropped unanswered, as when the close crosses the client's next request on the
 *   wire; `close-header` says `Connection: close` and closes.
 * - `idleCloseMs`: a kept connection is closed after this long unused (shorter than a client's).
 * - `chunked`: no Content-Length, the body in chunks; `gzip`: compressed when the client accepts it.
 * - `slowBodyMs`: half the body, a pause of that long, the rest; `resetMidBody`: half the body,
 *   then the connection is reset.
 */
export interface Habits {
  connection?: "keep-alive" | "close-after-answer" | "close-header";
  idleCloseMs?: number;
  chunked?: boolean;
  gzip?: boolean;
  slowBodyMs?: number;
  resetMidBody?: boolean;
}

export function validHabits(value: unknown): Habits | null {
  if (!value || typeof value !== "object") return null;
  const h = value as Record<string, unknown>;
  const known = new Set(["connection", "idleCloseMs", "chunked", "gzip", "slowBodyMs", "resetMidBody"]);
  if (Object.keys(h).some((k) => !known.has(k))) return null;
  if (h.connection !== undefined && !["keep-alive", "close-after-answer", "close-header"].includes(h.connection as string)) return null;
  for (const key of ["idleCloseMs", "slowBodyMs"]) {
    if (h[key] !== undefined && (typeof h[key] !== "number" || !Number.isInteger(h[key]) || (h[key] as number) < 0)) return null;
  }
  for (const key of ["chunked", "gzip", "resetMidBody"]) if (h[key] !== undefined && typeof h[key] !== "boolean") return null;
  return h as Habits;
}
export function validFault(value: unknown): Fault | null {
  if (!value || typeof value !== "object") return null;
  const f = value as Record<string, unknown>;
  switch (f.kind) {
    case "none":
    case "malformed":
    case "reset":
    case "hang":
      return { kind: f.kind };
    case "latency":
    case "fixed":
      return typeof f.ms === "number" && Number.isFinite(f.ms) && f.ms >= 0 ? { kind: f.kind, ms: f.ms } : null;
    case "status":
      if (typeof f.status !== "number" || !Number.isInteger(f.status) || f.status < 200 || f.status > 599) return null;
      if (f.body !== undefined && typeof f.body !== "string") return null;
      return f.body === undefined ? { kind: "status", status: f.status } : { kind: "status", status: f.status, body: f.body };
    default:
      return null;
  }
}

function sleep(ms: number, timers: Set<NodeJS.Timeout>): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      resolve();
    }, ms);
    timers.add(timer);
  });
}

const STATUS_TEXT: Record<number, string> = { 401: "Unauthorized", 403: "Forbidden", 404: "Not Found" };
/** A body cut off mid-document, for the `malformed` fault. */
const TRUNCATED_BODY = '{"responseHeader":{"status":0,"QTime":1},"response":{"numFound":3,"start":0,"docs":[{"id":"ITEM-0000001","item_description_t":"Washer Ti';

export const JSON_TYPE = "application/json;charset=UTF-8";

/** What sending under the habits needs of the running stand-in. */
export interface HabitsRuntime {
  habits: Habits;
  /** Timers to clear when the stand-in closes. */
  timers: Set<NodeJS.Timeout>;
  /** Connections closing after their answer (`close-after-answer`): a request arriving on one is dropped. */
  answeredSockets: WeakSet<Socket>;
}

/** After `ms`, unless the stand-in closes first: the timer is one of `timers`. */
function later(timers: Set<NodeJS.Timeout>, ms: number, run: () => void): void {
  const timer = setTimeout(() => {
    timers.delete(timer);
    run();
  }, ms);
  timers.add(timer);
}

/** An answer sent the way the current habits say (see Habits). */
export function answerWithHabits(runtime: HabitsRuntime, res: http.ServerResponse, status: number, text: Buffer, headers: Record<string, string>): void {
  const current = runtime.habits;
  let payload = text;
  const head: Record<string, string | number> = { "Content-Type": JSON_TYPE, ...headers };
  if (current.gzip && payload.length > 0 && /\bgzip\b/.test(String(res.req.headers["accept-encoding"] ?? ""))) {
    payload = zlib.gzipSync(payload);
    head["Content-Encoding"] = "gzip";
  }
  if (!current.chunked) head["Content-Length"] = payload.length;
  if (current.connection === "close-header") head.Connection = "close";
  if (current.connection === "close-after-answer" && res.socket) {
    // The response lets go of its socket when it finishes: keep hold of it to close it then.
    const socket = res.socket;
    runtime.answeredSockets.add(socket);
    res.once("finish", () => later(runtime.timers, CLOSE_LAG_MS, () => socket.end()));
  }
  res.writeHead(status, head);
  if (!current.slowBodyMs && !current.resetMidBody && !current.chunked) return void res.end(payload);
  const half = Math.floor(payload.length / 2);
  res.write(payload.subarray(0, half));
  if (current.resetMidBody) {
    const socket = res.socket;
    if (socket && typeof socket.resetAndDestroy === "function") socket.resetAndDestroy();
    else socket?.destroy();
    return;
  }
  later(runtime.timers, current.slowBodyMs ?? 0, () => {
    if (!res.destroyed) res.end(payload.subarray(half));
  });
}

type Send = (res: http.ServerResponse, status: number, body: unknown, headers?: Record<string, string>) => void;

/**
 * The current fault's part in answering a request to `/api…`: "answered" when the fault has
 * answered it (an error status, malformed JSON) or never will (a reset, a hang); "go on" when the
 * request is to be answered as usual, after the fault's latency, or at its fixed time (`sendAt`).
 */
export async function misbehave(
  fault: Fault,
  exchange: { req: http.IncomingMessage; res: http.ServerResponse; arrivedAt: number },
  stand: { send: Send; timers: Set<NodeJS.Timeout>; sendAt: WeakMap<http.ServerResponse, number>; closing: () => boolean; errorBody: (status: number, msg: string) => unknown },
): Promise<"answered" | "go on"> {
  const { req, res } = exchange;
  switch (fault.kind) {
    case "latency":
      await sleep(fault.ms, stand.timers);
      return stand.closing() ? "answered" : "go on";
    case "fixed":
      stand.sendAt.set(res, exchange.arrivedAt + fault.ms);
      return "go on";
    case "status": {
      const extra: Record<string, string> = fault.status === 401 ? { "WWW-Authenticate": 'Basic realm="fusion"' } : {};
      const text = STATUS_TEXT[fault.status] ?? http.STATUS_CODES[fault.status] ?? "Error";
      stand.send(res, fault.status, fault.body ?? stand.errorBody(fault.status, text), extra);
      return "answered";
    }
    case "malformed":
      stand.send(res, 200, TRUNCATED_BODY);
      return "answered";
    case "reset":
      if (typeof req.socket.resetAndDestroy === "function") req.socket.resetAndDestroy();
      else req.socket.destroy();
      return "answered";
    case "hang":
      return "answered"; // the socket stays open until the client gives up or close() destroys it
    default:
      return "go on";
  }
}
