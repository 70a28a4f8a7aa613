#!/usr/bin/env node
/**
 * The portal's HTTP server: what remix-serve does in production (compression, fingerprinted assets
 * cached for a year, the public folder, a request log, the Remix request handler), assembled from
 * the same packages, with the app's security envelope in front of everything
 * (app/web/envelope.server.ts, reached through the build's entry module): unknown methods,
 * cross-site posts and floods are refused before Remix sees them, and every answer, a static file
 * or an error page included, carries the security headers and its own script nonce.
 *
 * Behind a proxy, TRUST_PROXY says whose X-Forwarded-For to believe (Express's `trust proxy`): the
 * client's address the limits, signals and the log use. Each request is one JSON line in the log
 * (app/web/operations.server.ts) and an observation in the metrics, served at GET /metrics or on
 * a listener of their own (METRICS_LISTEN); in a cluster (scripts/workers.mjs) a scrape of any
 * worker answers for them all. With a shared store (DATABASE_URL) the server listens at once and
 * its tables are made in the background, whenever PostgreSQL answers.
 *
 * SIGTERM or SIGINT, sent once or many times, to the server or to its whole process group, stops
 * it gracefully: readiness answers 503 at once, requests are still served for SHUTDOWN_DRAIN_MS
 * while the balancer notices, then the server stops accepting, finishes what it has (for at most
 * IN_FLIGHT_MS), sends the signals outbox to Fusion (for at most OUTBOX_MS), closes its stores and
 * exits 0.
 *
 *   node scripts/server.mjs build/index.js     (PORT, HOST as for remix-serve)
 */
import { Buffer } from "node:buffer";
import cluster from "node:cluster";
import http from "node:http";
import path from "node:path";
import url from "node:url";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";
import expressStaticGzip from "express-static-gzip";

process.env.NODE_ENV = process.env.NODE_ENV ?? "production";
const buildPath = path.resolve(process.argv[2] ?? "build/index.js");
// Remix's globals are not installed: Node 20 has fetch, Request, Response, Headers, FormData and File of its own
// (undici), which Remix's request handler uses as they are, and which the Fusion client and its
// tests run on. Installing Remix's web-fetch over them would give this process another HTTP client
// than the tested one (docs/decisions/022).
const build = await import(url.pathToFileURL(buildPath).href);
/** A stopping server finishes its requests for at most this long, then closes what is left. */
const IN_FLIGHT_MS = 10_000;
/** …and sends the signals outbox to Fusion for at most this long; the rest waits for the next start. */
const OUTBOX_MS = 5_000;

const envelope = build.entry.module.serverEnvelope();
const port = Number(process.env.PORT || 3000);
let closing = false;
let inFlight = 0;
let allAnswered = () => {};

/** The metrics of this process, or in a cluster those of every worker, which the primary adds up. */
const pendingScrapes = new Map();
let scrapes = 0;
function metricsText() {
  if (!cluster.isWorker) return envelope.metrics();
  return new Promise((resolve, reject) => {
    const id = ++scrapes;
    const timer = setTimeout(() => {
      pendingScrapes.delete(id);
      reject(new Error("the cluster's primary did not answer"));
    }, 5000);
    pendingScrapes.set(id, { resolve, reject, timer });
    process.send({ type: "crib:metrics", id });
  });
}
process.on("message", (message) => {
  const pending = message?.type === "crib:metrics-answer" && pendingScrapes.get(message.id);
  if (!pending) return;
  pendingScrapes.delete(message.id);
  clearTimeout(pending.timer);
  if (message.error) pending.reject(new Error(message.error));
  else pending.resolve({ text: message.text, contentType: message.contentType });
});
/** Answers a scrape: never limited, never behind sign-in (it shows no person's data). */
function serveMetrics(res) {
  metricsText().then(
    ({ text, contentType }) => res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store" }).end(text),
    (error) => res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8" }).end(`Metrics unavailable: ${error.message}\n`),
  );
}
const METRICS_PATH = /^\/metrics\/?$/i;

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", envelope.trustProxy);
app.use((req, res, next) => {
  const started = process.hrtime.bigint();
  const { requestId, trace } = envelope.begin(req.headers);
  // The request's id, taken or made, is the one the app (its load context), its answer and the log all name.
  res.locals.requestId = requestId;
  res.setHeader("X-Request-ID", requestId);
  const client = req.ip ?? req.socket.remoteAddress ?? "";
  let verdict = null;
  inFlight++;
  res.once("close", () => {
    if (--inFlight === 0 && closing) allAnswered();
    envelope.record({
      requestId,
      traceId: trace.traceId,
      method: req.method,
      url: req.originalUrl,
      status: res.statusCode,
      seconds: Number(process.hrtime.bigint() - started) / 1e9,
      client,
      user: verdict?.user,
      refusal: verdict?.refusal?.reason,
      aborted: !res.writableFinished,
    });
  });
  // Once the server is closing, each answer ends its connection: keep-alive must not hold the stop up.
  if (closing) res.setHeader("Connection", "close");
  if (envelope.metricsListen === "portal" && METRICS_PATH.test(req.path) && (req.method === "GET" || req.method === "HEAD")) return serveMetrics(res);
  const request = { method: req.method, url: req.originalUrl, headers: req.headers, client };
  envelope.check(request).then((checked) => {
    verdict = checked;
    for (const [name, value] of Object.entries(verdict.headers)) res.setHeader(name, value);
    if (verdict.preflight) return void res.status(204).end();
    if (!verdict.refusal) {
      res.locals.cspNonce = verdict.cspNonce;
      // The request's sign-in, and the visitor's usage-signals session (a cookie made on the first page).
      if (!/^\/(build\/|favicon\.|embed\/widgets\.js$)/.test(req.path)) {
        const admitted = envelope.admit(req.headers, request.client);
        res.locals.identity = admitted.identity;
        res.locals.signals = admitted.signals;
        if (admitted.setCookie) res.append("Set-Cookie", admitted.setCookie);
      }
      // Whatever the request calls (Fusion, the identity provider) carries its trace.
      return envelope.inTrace(trace, next);
    }
    const answer = envelope.refuse(request, verdict, requestId);
    res.status(answer.status);
    answer.headers.forEach((value, name) => res.setHeader(name, value));
    return answer.arrayBuffer().then((body) => res.end(Buffer.from(body)));
  }, next);
});
app.use(compression());
// The build's scripts and stylesheet as `npm run build` compressed them (scripts/precompress.mjs):
// Brotli where the browser accepts it, else Zopfli's gzip; a file without copies is compressed above.
app.use(build.publicPath, expressStaticGzip(build.assetsBuildDirectory, { enableBrotli: true, orderPreference: ["br", "gzip"], serveStatic: { immutable: true, maxAge: "1y" } }));
app.use(express.static("public", { maxAge: "1h" }));
// What was established above reaches loaders, actions and the render in the load context (app/web/load-context.ts).
const getLoadContext = (_req, res) => ({
  requestId: res.locals.requestId,
  cspNonce: res.locals.cspNonce,
  signals: res.locals.signals,
  identity: res.locals.identity,
});
app.all("*", createRequestHandler({ build, mode: process.env.NODE_ENV, getLoadContext }));

envelope.prepare();
const server = process.env.HOST ? app.listen(port, process.env.HOST) : app.listen(port);
// A listener of the metrics' own (METRICS_LISTEN): in a cluster the workers share its port, as they share the portal's.
const metricsServer =
  typeof envelope.metricsListen === "object"
    ? http
        .createServer((req, res) => (METRICS_PATH.test(new URL(req.url ?? "/", "http://metrics.invalid").pathname) ? serveMetrics(res) : res.writeHead(404).end()))
        .listen(envelope.metricsListen.port, envelope.metricsListen.host)
    : null;
// Headers over Node's limit (16 KB) never reach express: say what happened, with the envelope's basics.
server.on("clientError", (error, socket) => {
  if (!socket.writable) return socket.destroy();
  const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
  const status = tooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request";
  const body = tooLarge ? "The request's headers are too large. Clear this site's cookies and try again.\n" : "Bad request.\n";
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
});
server.on("listening", () => envelope.log.info({ url: `http://${process.env.HOST || "localhost"}:${port}`, metrics: envelope.metricsListen }, "listening"));

let stopping = false;
async function stop(signal) {
  if (stopping) {
    // A second signal (a process group's, a supervisor's repeat) never shortens the drain.
    envelope.log.info({ signal }, "already stopping");
    return;
  }
  stopping = true;
  envelope.log.info({ signal, drainMs: envelope.shutdownDrainMs }, "stopping: not ready, still serving while the balancer notices");
  envelope.drain();
  await new Promise((resolve) => setTimeout(resolve, envelope.shutdownDrainMs));
  closing = true;
  metricsServer?.close();
  const closed = new Promise((resolve) => server.close(resolve));
  // Idle keep-alive connections go now; busy ones after their answer (Connection: close).
  server.closeIdleConnections();
  const answered = inFlight === 0 ? Promise.resolve() : new Promise((resolve) => (allAnswered = resolve));
  const late = setTimeout(() => server.closeAllConnections(), IN_FLIGHT_MS);
  await answered;
  server.closeAllConnections();
  await closed;
  clearTimeout(late);
  try {
    await envelope.close(OUTBOX_MS);
  } catch (error) {
    envelope.log.error({ err: error }, "stores could not be closed");
  }
  envelope.log.info({ signal }, "stopped");
  process.exit(0);
}
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => void stop(signal));
// The primary of scripts/serve.mjs stops its workers with a SIGTERM (scripts/workers.mjs); a worker
// whose primary is gone (its IPC channel closed) stops as for one, rather than serve on unmanaged.
if (process.send) process.once("disconnect", () => void stop("disconnect"));
