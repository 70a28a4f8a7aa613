#!/usr/bin/env node
/**
 * The portal's HTTP server: what remix-serve does in production (compression, fingerprinted assets
 * cached for a year, the public folder, a request log, the Remix request handler), assembled from
 * the same packages, with the app's security envelope in front of everything
 * (app/web/envelope.server.ts, reached through the build's entry module): unknown methods,
 * cross-site posts and floods are refused before Remix sees them, and every answer, a static file
 * or an error page included, carries the security headers and its own script nonce.
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
// No installGlobals(): Node 20 has fetch, Request, Response, Headers, FormData and File of its own
// (undici), which Remix's request handler uses as they are, and which the Fusion client and its
// tests run on. Installing Remix's web-fetch over them would give this process another HTTP client
// than the tested one (docs/decisions/022).
const build = await import(url.pathToFileURL(buildPath).href);

const envelope = build.entry.module.serverEnvelope();
const port = Number(process.env.PORT || 3000);

const app = express();
app.disable("x-powered-by");
app.use((req, res, next) => {
  const request = { method: req.method, url: req.originalUrl, headers: req.headers, client: req.socket.remoteAddress ?? "" };
  const verdict = envelope.check(request);
  for (const [name, value] of Object.entries(verdict.headers)) res.setHeader(name, value);
  if (verdict.preflight) return void res.status(204).end();
  if (!verdict.refusal) {
    res.locals.cspNonce = verdict.cspNonce;
    // Usage signals: the visitor's session (a cookie made on the first page) for the app to read.
    if (!/^\/(build\/|favicon\.|embed\/widgets\.js$)/.test(req.path)) {
      const session = envelope.signalSession(req.headers, request.client);
      Object.assign(req.headers, session.requestHeaders);
      if (session.setCookie) res.append("Set-Cookie", session.setCookie);
    }
    return next();
  }
  const answer = envelope.refuse(request, verdict);
  res.status(answer.status);
  answer.headers.forEach((value, name) => res.setHeader(name, value));
  answer.arrayBuffer().then((body) => res.end(Buffer.from(body)), next);
});
app.use(compression());
app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }));
app.use(express.static("public", { maxAge: "1h" }));
app.use(morgan("tiny"));
app.all("*", createRequestHandler({ build, mode: process.env.NODE_ENV, getLoadContext: (_req, res) => ({ cspNonce: res.locals.cspNonce }) }));

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
server.on("listening", () => console.log(`[crib-search] http://${process.env.HOST || "localhost"}:${port}`));
for (const signal of ["SIGTERM", "SIGINT"]) process.once(signal, () => server.close(() => process.exit(0)));
