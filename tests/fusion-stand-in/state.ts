/**
 * What a running stand-in keeps between requests (its fault and habits, the requests and signals
 * that arrived, its timers and connections), and the one way every part of it answers: `send`.
 */
import type http from "node:http";
import type { Socket } from "node:net";
import { answerWithHabits, JSON_TYPE, type Fault, type Habits, type HabitsRuntime } from "./faults";

export interface RecordedRequest {
  method: string;
  path: string;
  params: [string, string][];
  headers: Record<string, string>;
  at: number;
}

/** Oldest recorded requests are dropped past this, so a long-running dev server stays small. */
export const MAX_RECORDED_REQUESTS = 10_000;

export interface StandInState extends HabitsRuntime {
  fault: Fault;
  requests: RecordedRequest[];
  /** Requests the `hang` fault holds unanswered, while their connections are open. */
  held: Set<RecordedRequest>;
  /** Signals received through the Signals API, in order of arrival (a resent one appears twice). */
  signals: { collection: string; signal: unknown }[];
  sockets: Set<Socket>;
  /** Answer times of requests under the `fixed` fault, and the answers it repeats. */
  sendAt: WeakMap<http.ServerResponse, number>;
  fixedAnswers: Map<string, string>;
  /** The control API's own answers are sent plainly, whatever the habits. */
  controlAnswers: WeakSet<http.ServerResponse>;
  closing: Promise<void> | undefined;
  /** New habits, and what the server does about them (its idle time for kept connections). */
  applyHabits(next: Habits): void;
}

export function createState(habits: Habits): StandInState {
  return {
    fault: { kind: "none" },
    habits,
    requests: [],
    held: new Set(),
    signals: [],
    sockets: new Set(),
    timers: new Set(),
    answeredSockets: new WeakSet(),
    sendAt: new WeakMap(),
    fixedAnswers: new Map(),
    controlAnswers: new WeakSet(),
    closing: undefined,
    applyHabits(next) {
      this.habits = next;
    },
  };
}

export function record(state: StandInState, entry: RecordedRequest): void {
  const { requests } = state;
  requests.push(entry);
  if (requests.length > MAX_RECORDED_REQUESTS) requests.splice(0, requests.length - MAX_RECORDED_REQUESTS);
}

export const errorBody = (status: number, msg: string) => ({ error: { msg, code: status } });

/** Sends an answer: at its time under the `fixed` fault, plainly to the control API, else with the habits. */
export function send(state: StandInState, res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const at = state.sendAt.get(res);
  const early = at === undefined ? 0 : at - performance.now();
  if (early > 0) {
    // A timer never fires early but up to a millisecond and a half late; that lateness is
    // counted against the portal. Waiting out the last stretch by spinning the event loop would
    // be more exact, but would take CPU time away from the portal on the same machine.
    const timer = setTimeout(() => {
      state.timers.delete(timer);
      send(state, res, status, body, headers);
    }, Math.ceil(early));
    state.timers.add(timer);
    return;
  }
  const text = typeof body === "string" ? body : JSON.stringify(body);
  if (state.controlAnswers.has(res)) {
    res.writeHead(status, { "Content-Type": JSON_TYPE, "Content-Length": Buffer.byteLength(text), ...headers });
    res.end(text);
    return;
  }
  answerWithHabits(state, res, status, Buffer.from(text), headers);
}

export function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
