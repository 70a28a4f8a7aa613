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
 * client's address the limits, signals and the log use. With a shared store (DATABASE_URL) its
 * tables are made before the server listens. SIGTERM stops it gracefully: readiness answers 503 at
 * once, requests are still served for SHUTDOWN_DRAIN_MS while the balancer notices, then the server
 * stops accepting, finishes what it has (for at most IN_FLIGHT_MS), sends the signals outbox to
 * Fusion (for at most OUTBOX_MS), closes its stores and exits 0.
 *
 *   node scripts/server.mjs build/index.js     (PORT, HOST as for remix-serve)
 */
import { Buffer } from "node:buffer";
import path from "node:path";
import url from "node:url";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";
import morgan from "morgan";

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

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", envelope.trustProxy);
app.use((req, res, next) => {
  inFlight++;
  res.once("close", () => {
    if (--inFlight === 0 && closing) allAnswered();
  });
  // Once the server is closing, each answer ends its connection: keep-alive must not hold the stop up.
  if (closing) res.setHeader("Connection", "close");
  const request = { method: req.method, url: req.originalUrl, headers: req.headers, client: req.ip ?? req.socket.remoteAddress ?? "" };
  envelope.check(request).then((verdict) => {
    for (const [name, value] of Object.entries(verdict.headers)) res.setHeader(name, value);
    if (verdict.preflight) return void res.status(204).end();
    if (!verdict.refusal) {
      res.locals.cspNonce = verdict.cspNonce;
      // The request's own token, and the visitor's usage-signals session (a cookie made on the first page).
      if (!/^\/(build\/|favicon\.|embed\/widgets\.js$)/.test(req.path)) {
        const admitted = envelope.admit(req.headers, request.client);
        Object.assign(req.headers, admitted.requestHeaders);
        res.locals.signals = admitted.signals;
        if (admitted.setCookie) res.append("Set-Cookie", admitted.setCookie);
      }
      return next();
    }
    const answer = envelope.refuse(request, verdict);
    res.status(answer.status);
    answer.headers.forEach((value, name) => res.setHeader(name, value));
    return answer.arrayBuffer().then((body) => res.end(Buffer.from(body)));
  }, next);
});
app.use(compression());
app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }));
app.use(express.static("public", { maxAge: "1h" }));
// The client's address as TRUST_PROXY establishes it (req.ip), not the proxy's.
app.use(morgan(":remote-addr :method :url :status :res[content-length] - :response-time ms"));
// What was established above reaches loaders, actions and the render in the load context (app/web/load-context.ts).
const getLoadContext = (_req, res) => ({ cspNonce: res.locals.cspNonce, signals: res.locals.signals });
app.all("*", createRequestHandler({ build, mode: process.env.NODE_ENV, getLoadContext }));

try {
  await envelope.prepare();
} catch (error) {
  console.error("The shared store could not be prepared:", error instanceof Error ? error.message : error);
  process.exit(1);
}
const server = process.env.HOST ? app.listen(port, process.env.HOST) : app.listen(port);
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
server.on("listening", () => console.log(`[crib-search] http://${process.env.HOST || "localhost"}:${port} (replica ${envelope.replicaId})`));

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`[crib-search] ${signal}: not ready; still serving for ${envelope.shutdownDrainMs} ms`);
  envelope.drain();
  await new Promise((resolve) => setTimeout(resolve, envelope.shutdownDrainMs));
  closing = true;
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
    console.error("[crib-search] stores could not be closed:", error);
  }
  console.log("[crib-search] stopped");
  process.exit(0);
}
for (const signal of ["SIGTERM", "SIGINT"]) process.once(signal, () => void stop(signal));
// A worker of scripts/serve.mjs is stopped by its primary, which disconnects it.
if (process.send) process.once("disconnect", () => void stop("disconnect"));
