import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boundedFetch } from "./bounded-fetch.server";

/** An outside service: `/json` answers, `/stall` sends its headers and half a body then nothing, `/huge` sends 2 MB. */
let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((request, response) => {
    if (request.url === "/json") {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk));
      request.on("end", () => response.writeHead(201, { "Content-Type": "application/json" }).end(JSON.stringify({ method: request.method, body })));
    } else if (request.url === "/stall") {
      response.writeHead(200, { "Content-Type": "application/json" }).write('{"access_token":');
    } else if (request.url === "/huge") {
      response.writeHead(200).end(Buffer.alloc(2 * 1024 * 1024, 32));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("boundedFetch: a call to an outside service, bounded in time and size", () => {
  it("posts a body and answers with the status, type and body", async () => {
    const response = await boundedFetch(`${base}/json`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "a=1" }, AbortSignal.timeout(5000));
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual({ method: "POST", body: "a=1" });
  });

  it("gives up on an answer that stops halfway when the time is up", async () => {
    await expect(boundedFetch(`${base}/stall`, {}, AbortSignal.timeout(300))).rejects.toThrow();
  });

  it("refuses an answer larger than any the provider has reason to send", async () => {
    await expect(boundedFetch(`${base}/huge`, {}, AbortSignal.timeout(5000))).rejects.toThrow(/larger than/);
  });

  it("fails when nothing listens", async () => {
    await expect(boundedFetch("http://127.0.0.1:1/", {}, AbortSignal.timeout(5000))).rejects.toThrow();
  });
});
