// The HTTP client against real local servers (no msw): connection reuse, compression and redirects
// are properties of the sockets and bytes, which a mocked transport would not show.
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { MESSAGES } from "./fusion-errors";
import { isClosedConnection } from "~/lib/closed-connection";
import { fusionGet, fusionStatus, loggableUrl, MAX_ANSWER_BYTES } from "./fusion-http.server";
import { rejection } from "../../../../tests/support/fusion-rejection";

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A connection goes back to the pool once the end of its answer has been handled, a turn later. */
const released = () => new Promise((resolve) => setImmediate(resolve));

const answer = { response: { numFound: 1, docs: [{ id: "1" }] } };
const get = (url: string, apiKey?: string) => fusionGet(url, { timeoutMs: 2_000, ...(apiKey === undefined ? {} : { apiKey }) });

describe("Fusion's HTTP client", () => {
  it("asks for a compressed answer and reads gzip, deflate and brotli", async () => {
    const seen: (string | undefined)[] = [];
    const compress = { gzip: zlib.gzipSync, deflate: zlib.deflateSync, br: zlib.brotliCompressSync } as const;
    const base = await serve((req, res) => {
      seen.push(req.headers["accept-encoding"]);
      const encoding = req.url!.slice(1) as keyof typeof compress;
      res.writeHead(200, { "Content-Type": "application/json", "Content-Encoding": encoding });
      res.end(compress[encoding](JSON.stringify(answer)));
    });
    for (const encoding of ["gzip", "deflate", "br"]) {
      expect((await get(`${base}/${encoding}`)).body).toEqual(answer);
    }
    expect(seen.every((value) => /gzip/.test(value ?? ""))).toBe(true);
  });

  it("reads an answer that decompresses past 20 MB as malformed, without holding it", async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(MAX_ANSWER_BYTES + 1024 * 1024, 0x20));
    const base = await serve((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json", "Content-Encoding": "gzip" });
      res.end(bomb);
    });
    // A generous timeout: decompressing 21 MB on a busy machine must not read as a timeout.
    const error = await rejection(fusionGet(`${base}/`, { timeoutMs: 30_000 }));
    expect(error.reason).toBe("malformed");
    expect(error.isOutage).toBe(true);
  }, 40_000);

  it("reports a body that does not decompress as 'Search request failed'", async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json", "Content-Encoding": "gzip" });
      res.end("not gzip at all");
    });
    expect((await rejection(get(`${base}/`))).message).toBe(MESSAGES.failed);
  });

  it("follows a redirect on the same host with its headers, and refuses one to another host", async () => {
    const keys: (string | undefined)[] = [];
    const base = await serve((req, res) => {
      keys.push(req.headers["x-api-key"] as string | undefined);
      if (req.url === "/old") return res.writeHead(301, { Location: "/new" }).end();
      if (req.url === "/away") return res.writeHead(302, { Location: "http://elsewhere.invalid/new" }).end();
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(answer));
    });
    expect((await get(`${base}/old`, "secret")).body).toEqual(answer);
    expect(keys).toEqual(["secret", "secret"]);
    const refused = await rejection(get(`${base}/away`, "secret"));
    expect(refused.message).toBe("HTTP 302: Found");
    expect(keys).toHaveLength(3);
  });

  it("sends the API key only to Fusion's own origin: not to another port of the same host", async () => {
    const keys: (string | undefined)[] = [];
    const other = await serve((req, res) => {
      keys.push(req.headers["x-api-key"] as string | undefined);
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(answer));
    });
    const base = await serve((req, res) => {
      keys.push(req.headers["x-api-key"] as string | undefined);
      res.writeHead(307, { Location: `${other}/moved` }).end();
    });
    expect((await get(`${base}/search`, "secret")).body).toEqual(answer);
    expect(keys).toEqual(["secret", undefined]);
  });

  it("stops following a redirect loop", async () => {
    let hits = 0;
    const base = await serve((_req, res) => {
      hits++;
      res.writeHead(302, { Location: "/again" }).end();
    });
    expect((await rejection(get(`${base}/again`))).message).toBe("HTTP 302: Found");
    expect(hits).toBe(6);
  });

  it("turns a header value Node refuses into the spec's failure text instead of throwing", async () => {
    let hits = 0;
    const base = await serve((_req, res) => {
      hits++;
      res.end("{}");
    });
    const error = await rejection(get(`${base}/`, "key\nInjected: yes"));
    expect(error.message).toBe(MESSAGES.failed);
    expect(hits).toBe(0);
  });

  it("sends a request once more when the server had just closed the kept connection", async () => {
    const sockets = new Set<unknown>();
    const requestsBySocket = new Map<unknown, number>();
    const base = await serve((req, res) => {
      sockets.add(req.socket);
      const count = (requestsBySocket.get(req.socket) ?? 0) + 1;
      requestsBySocket.set(req.socket, count);
      // The second request on a connection finds it closing, as after the server's idle timeout.
      if (count === 2) return req.socket.destroy();
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(answer));
    });
    expect((await get(`${base}/`)).body).toEqual(answer);
    await released();
    expect((await get(`${base}/`)).body).toEqual(answer);
    // The second request went out on the kept connection, found it closed, and was sent again.
    expect([...requestsBySocket.values()]).toEqual([2, 1]);
    expect(sockets.size).toBe(2);
  });
});

describe("connections the server closes", () => {
  it("answers every call from a server that closes each connection after its answer, without saying so", async () => {
    const sockets = new Set<unknown>();
    const base = await serve((req, res) => {
      sockets.add(req.socket);
      res.writeHead(200, { "Content-Type": "application/json" });
      // An HTTP/1.0-style server, or a proxy with a short idle time: the answer, then the close.
      res.end(JSON.stringify(answer), () => req.socket.end());
    });
    for (let call = 0; call < 20; call++) {
      expect((await get(`${base}/${call}`)).body).toEqual(answer);
      if (call % 2 === 0) await released();
    }
    expect(sockets.size).toBeGreaterThan(1);
  });

  it("knows a closed connection whatever shape the client gives its error", () => {
    // Node's fetch (undici): the socket's code on the cause.
    expect(isClosedConnection(new TypeError("fetch failed", { cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }) }))).toBe(true);
    // @remix-run/web-fetch and node:http: the code on the error itself.
    expect(isClosedConnection(Object.assign(new Error("request to http://fusion/ failed, reason: socket hang up"), { code: "ECONNRESET" }))).toBe(true);
    expect(isClosedConnection(new Error("socket hang up"))).toBe(true);
    expect(isClosedConnection(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }))).toBe(true);
    // Not a closed connection: nothing to send again.
    expect(isClosedConnection(new TypeError("fetch failed", { cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }) }))).toBe(false);
    expect(isClosedConnection(new DOMException("The operation was aborted", "AbortError"))).toBe(false);
  });

  it("gives a request up after three tries, and keeps its timeout as a hard limit over them all", async () => {
    let hits = 0;
    const base = await serve((req) => {
      hits++;
      req.socket.destroy();
    });
    const error = await rejection(get(`${base}/`));
    expect(error.message).toBe(MESSAGES.failed);
    expect(hits).toBe(3);

    let slowHits = 0;
    const slow = await serve((req) => {
      // The first try is cut after 150 ms, the second never answers: the timeout ends both.
      slowHits++;
      if (slowHits === 1) setTimeout(() => req.socket.destroy(), 150);
    });
    const timedOut = await rejection(fusionGet(`${slow}/`, { timeoutMs: 400 }));
    expect(timedOut.message).toBe(MESSAGES.timeout);
    expect(slowHits).toBe(2);
  });
});

describe("a failure's diagnosis for operators", () => {
  it("names the status or the transport's code, the address without credentials, the time and the request id; never the key or the body", async () => {
    const authorizations: (string | undefined)[] = [];
    const base = await serve((req, res) => {
      authorizations.push(req.headers.authorization);
      if (req.url!.startsWith("/refuse")) return res.writeHead(503, { "Content-Type": "application/json" }).end('{"error":{"msg":"internal secret text"}}');
      req.socket.destroy();
    });
    const withCredentials = base.replace("http://", "http://svc:hunter2@");
    const refused = await rejection(fusionGet(`${withCredentials}/refuse?q=pump`, { timeoutMs: 2_000, apiKey: "the-api-key", requestId: "req-42" }));
    expect(refused.detail).toMatch(new RegExp(`^HTTP 503: Service Unavailable \\[HTTP 503; GET ${base.replace(/[.]/g, "\\.")}/refuse\\?q=pump; \\d+ ms; request req-42\\]$`));
    const reset = await rejection(fusionGet(`${base}/reset`, { timeoutMs: 2_000, apiKey: "the-api-key", requestId: "req-43" }));
    expect(reset.detail).toMatch(/^Search request failed \[(ECONNRESET|UND_ERR_SOCKET); GET http:\/\/127\.0\.0\.1:\d+\/reset; \d+ ms; request req-43\]$/);
    // The address's user and password went as Basic authentication, to Fusion only.
    expect(authorizations[0]).toBe(`Basic ${Buffer.from("svc:hunter2").toString("base64")}`);
    for (const error of [refused, reset]) {
      expect(error.detail).not.toContain("internal secret text");
      expect(error.detail).not.toContain("hunter2");
      expect(error.detail).not.toContain("the-api-key");
    }
  });

  it("shows an address without its user and password, and cuts a long one", () => {
    expect(loggableUrl("https://svc:pass@fusion.example.com:6764/api/x?q=1")).toBe("https://fusion.example.com:6764/api/x?q=1");
    expect(loggableUrl(`http://f/${"a".repeat(400)}`)).toHaveLength(301);
    expect(loggableUrl("not a url")).toBe("(not a URL)");
  });
});

describe("Fusion's status probe", () => {
  it("answers the status with the key and a request id, and reads the body so the connection is kept", async () => {
    const sockets = new Set<unknown>();
    const seen: { key?: string; id?: string }[] = [];
    const base = await serve((req, res) => {
      sockets.add(req.socket);
      seen.push({ key: req.headers["x-api-key"] as string | undefined, id: req.headers["x-request-id"] as string | undefined });
      const status = req.url === "/missing" ? 404 : req.url === "/broken" ? 503 : 200;
      res.writeHead(status, { "Content-Type": "text/html" }).end("<html>".padEnd(50_000, "x"));
    });
    const probe = (path: string) => fusionStatus(`${base}${path}`, { timeoutMs: 2_000, apiKey: "secret", requestId: "probe-1" });
    expect(await probe("/")).toBe(200);
    await released();
    expect(await probe("/missing")).toBe(404);
    await released();
    expect(await probe("/broken")).toBe(503);
    expect(seen).toEqual(Array.from({ length: 3 }, () => ({ key: "secret", id: "probe-1" })));
    expect(sockets.size).toBe(1);
  });

  it("fails with the spec's text when nothing answers in time, the port is closed, or the address is not one", async () => {
    const base = await serve(() => {
      // never answers
    });
    // Only the client's timeout can end this probe: without it the test would time out.
    expect((await rejection(fusionStatus(`${base}/`, { timeoutMs: 100 }))).message).toBe(MESSAGES.timeout);

    const closed = await serve(() => {});
    const server = servers.pop()!;
    await new Promise((resolve) => server.close(resolve));
    expect((await rejection(fusionStatus(`${closed}/`, { timeoutMs: 2_000 }))).message).toBe(MESSAGES.refused);
    expect((await rejection(fusionStatus("not a url", { timeoutMs: 2_000 }))).message).toBe(MESSAGES.failed);
  });
});
