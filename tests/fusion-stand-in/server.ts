/**
 * A Lucidworks Fusion stand-in for tests and local work: answers the query-profile requests the
 * portal's Fusion client sends (docs/fusion-api.md §1.2, §1.5, §4), by default from recorded
 * documents with an index of its own (recorded.ts), so the portal is never checked against its own
 * engine; for local work and benchmarks, from a sample catalogue (`catalogPath`). It can be told
 * to misbehave (latency, error statuses, malformed JSON, connection resets, hangs) through
 * `setFault`, and to keep connections the way other servers do (`setHabits`: closing after every
 * answer, short idle times, chunked or gzip bodies, slow or broken bodies), also through the
 * `/__control` HTTP API.
 *
 * This module starts it and routes each request; the answers are `handlers.ts`'s, the faults and
 * habits `faults.ts`'s, the control API `control.ts`'s, what it keeps between requests `state.ts`'s.
 */
import http from "node:http";
import { control } from "./control";
import { catalogueData, recordedData } from "./data";
import { misbehave, validFault, validHabits, type Fault, type Habits } from "./faults";
import { answerApi, type ApiRequest, type Names } from "./handlers";
import { createState, errorBody, readBody, record, send, type RecordedRequest, type StandInState } from "./state";

export type { Fault, Habits } from "./faults";
export type { RecordedRequest } from "./state";

export interface StandInOptions {
  /** 0 = a random free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** A sample catalogue to answer from; absent, the recorded documents (recorded/*.json) answer. */
  catalogPath?: string;
  /** How connections and bodies are handled (default: kept alive, Content-Length, identity). */
  habits?: Habits;
  /** Default "parts". */
  app?: string;
  /** Default = app. */
  queryProfile?: string;
  /** Default "ge-appliances-boms". */
  bomProfile?: string;
  /** Default "asset-boms". */
  assetBomProfile?: string;
  /** When set, `/api/…` requests without header `x-api-key` equal to it get 401. */
  apiKey?: string;
}

export interface StandIn {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** The requests that the `hang` fault holds unanswered now, their connections still open, oldest first. */
  held(): RecordedRequest[];
  /** What arrived at `POST /api/signals/{collection}` (also `GET /__control/signals`). */
  signals: { collection: string; signal: unknown }[];
  setFault(fault: Fault): void;
  setHabits(habits: Habits): void;
  clearRequests(): void;
  close(): Promise<void>;
}

/** Parameters of the query string and of a form body, and the headers as single strings. */
async function readRequest(req: http.IncomingMessage, url: URL): Promise<{ list: [string, string][]; headers: Record<string, string> }> {
  const list: [string, string][] = [...url.searchParams];
  if (req.method === "POST" && (req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) {
    list.push(...new URLSearchParams(await readBody(req)));
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
  return { list, headers };
}

/** One request: the control API, the root, or the API once the current fault lets it through. */
async function handle(state: StandInState, answer: (request: ApiRequest) => Promise<void>, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const arrivedAt = performance.now();
  const url = new URL(req.url ?? "/", "http://stand-in.invalid");
  const path = url.pathname;
  if (path.startsWith("/__control/")) return control(state, req, res, path);

  const { list, headers } = await readRequest(req, url);
  const entry: RecordedRequest = { method: req.method ?? "GET", path, params: list, headers, at: Date.now() };
  record(state, entry);

  if (path === "/") return send(state, res, 200, { status: "ok" });
  if (path !== "/api" && !path.startsWith("/api/")) return send(state, res, 404, errorBody(404, "Not found"));

  const stand = {
    send: (to: http.ServerResponse, status: number, body: unknown, extra?: Record<string, string>) => send(state, to, status, body, extra),
    timers: state.timers,
    sendAt: state.sendAt,
    closing: () => state.closing !== undefined,
    errorBody,
  };
  const fault = state.fault;
  if ((await misbehave(fault, { req, res, arrivedAt }, stand)) === "answered") {
    if (fault.kind === "hang" && !res.destroyed) {
      state.held.add(entry);
      res.once("close", () => state.held.delete(entry));
    }
    return;
  }
  return answer({ req, res, path, list, headers, fault });
}

async function listen(server: http.Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  return typeof address === "object" && address ? address.port : port;
}

export async function startStandIn(options: StandInOptions): Promise<StandIn> {
  const names: Names = {
    app: options.app ?? "parts",
    queryProfile: options.queryProfile ?? options.app ?? "parts",
    bomProfile: options.bomProfile ?? "ge-appliances-boms",
    assetBomProfile: options.assetBomProfile ?? "asset-boms",
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
  };
  const data = options.catalogPath ? catalogueData(options.catalogPath) : recordedData();
  const state = createState(validHabits(options.habits ?? {}) ?? {});

  const server = http.createServer((req, res) => {
    if (state.answeredSockets.has(req.socket)) return void req.socket.destroy();
    handle(state, (request) => answerApi(state, data, names, request), req, res).catch((error: unknown) => {
      send(state, res, 500, errorBody(500, error instanceof Error ? error.message : String(error)));
    });
  });
  server.on("connection", (socket) => {
    state.sockets.add(socket);
    socket.on("close", () => state.sockets.delete(socket));
  });
  state.applyHabits = (next: Habits) => {
    state.habits = next;
    // Node's default idle time for kept connections is 5 s.
    server.keepAliveTimeout = next.idleCloseMs ?? 5_000;
  };
  state.applyHabits(state.habits);
  // A client that vanished mid-request is no reason to log anything.
  server.on("clientError", (_error, socket) => socket.destroy());

  const host = options.host ?? "127.0.0.1";
  const port = await listen(server, options.port ?? 0, host);
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    requests: state.requests,
    held: () => [...state.held],
    signals: state.signals,
    setFault(next: Fault) {
      const parsed = validFault(next);
      if (!parsed) throw new Error(`Not a fault: ${JSON.stringify(next)}`);
      state.fault = parsed;
    },
    setHabits(next: Habits) {
      const parsed = validHabits(next);
      if (!parsed) throw new Error(`Not habits: ${JSON.stringify(next)}`);
      state.applyHabits(parsed);
    },
    clearRequests() {
      state.requests.length = 0;
    },
    close() {
      state.closing ??= new Promise<void>((resolve) => {
        for (const timer of state.timers) clearTimeout(timer);
        state.timers.clear();
        server.close(() => {
          data.close();
          resolve();
        });
        server.closeAllConnections();
        for (const socket of state.sockets) socket.destroy();
      });
      return state.closing;
    },
  };
}
