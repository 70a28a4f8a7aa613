import { Transform, type TransformCallback } from "node:stream";
import type { EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { startUp } from "./start-up.server";
import { inTurn } from "./lib/in-turn.server";
import { setSecurityHeaders } from "./lib/security-headers.server";

startUp();

const ABORT_DELAY = 5_000;

/**
 * React writes the document in 2 KB pieces, each of which would travel separately through the web
 * stream and the HTTP response. This joins the pieces written in one turn of the event loop.
 */
class Coalescing extends Transform {
  private pieces: Buffer[] = [];
  private scheduled = false;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.pieces.push(chunk);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.release());
    }
    callback();
  }

  override _flush(callback: TransformCallback): void {
    this.release();
    callback();
  }

  private release(): void {
    this.scheduled = false;
    if (this.pieces.length === 0) return;
    this.push(this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces));
    this.pieces = [];
  }
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  // Crawlers and no-JavaScript clients get the whole document at once; browsers get it streamed.
  const waitForAll = isbot(request.headers.get("user-agent") ?? "");
  // One render at a time, in the order the pages were asked for (lib/in-turn.server.ts).
  return inTurn(
    (done) =>
      new Promise<Response>((resolve, reject) => {
        const renderStarted = performance.now();
        let shellRendered = false;
        const respond = () => {
          shellRendered = true;
          const body = new Coalescing();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          responseHeaders.append("Server-Timing", `render;dur=${(performance.now() - renderStarted).toFixed(1)}`);
          setSecurityHeaders(responseHeaders);
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        };
        const finish = () => {
          clearTimeout(timer);
          done();
        };
        const { pipe, abort } = renderToPipeableStream(
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />,
          {
            onShellReady() {
              if (!waitForAll) respond();
            },
            onAllReady() {
              if (waitForAll) respond();
              finish();
            },
            onShellError(error: unknown) {
              finish();
              reject(error);
            },
            onError(error: unknown) {
              responseStatusCode = 500;
              // Errors after the shell are reported to the error boundary; log them once here.
              if (shellRendered) console.error(error);
            },
          },
        );
        // A render that never completes gives up its turn with the abort.
        const timer = setTimeout(() => {
          abort();
          done();
        }, ABORT_DELAY);
      }),
  );
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  console.error(error);
}
