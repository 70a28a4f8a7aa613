/**
 * The stand-in's control API, `/__control/…`: the fault and the habits (set and read), the
 * requests that arrived (read and cleared), and the signals received. Its answers are plain
 * whatever the habits, and never delayed by a fault.
 */
import type http from "node:http";
import { validFault, validHabits } from "./faults";
import { errorBody, readBody, send, type StandInState } from "./state";

export async function control(state: StandInState, req: http.IncomingMessage, res: http.ServerResponse, path: string): Promise<void> {
  state.controlAnswers.add(res);
  /** A setting sent as JSON: read, checked by `valid`, then applied; 400 with `what` when it is not one. */
  const setting = async <T>(valid: (value: unknown) => T | null, what: string, apply: (value: T) => unknown) => {
    let value: unknown;
    try {
      value = JSON.parse(await readBody(req));
    } catch {
      return send(state, res, 400, errorBody(400, `Body must be JSON: ${what}`));
    }
    const parsed = valid(value);
    if (!parsed) return send(state, res, 400, errorBody(400, `Not ${what}`));
    return send(state, res, 200, apply(parsed));
  };
  if (path === "/__control/habits" && req.method === "POST") {
    return setting(validHabits, "habits: expected {connection, idleCloseMs, chunked, gzip, slowBodyMs, resetMidBody}", (next) => {
      state.applyHabits(next);
      return { habits: state.habits };
    });
  }
  if (path === "/__control/habits" && req.method === "GET") return send(state, res, 200, { habits: state.habits });
  if (path === "/__control/fault" && req.method === "POST") {
    return setting(validFault, "a fault: expected {kind: none|latency|status|malformed|reset|hang, …}", (next) => {
      state.fault = next;
      state.fixedAnswers.clear();
      return { fault: state.fault };
    });
  }
  if (path === "/__control/fault" && req.method === "GET") return send(state, res, 200, { fault: state.fault });
  if (path === "/__control/requests" && req.method === "GET") return send(state, res, 200, state.requests);
  if (path === "/__control/signals" && req.method === "GET") return send(state, res, 200, state.signals);
  if (path === "/__control/requests" && req.method === "DELETE") {
    const cleared = state.requests.length;
    state.requests.length = 0;
    return send(state, res, 200, { cleared });
  }
  return send(state, res, 404, errorBody(404, "Unknown control endpoint"));
}
