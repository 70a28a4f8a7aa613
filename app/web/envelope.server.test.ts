import { describe, expect, it } from "vitest";
import { chargesOf, contentSecurityPolicy, createEnvelope, crossSiteAllowance, FORM_MAX_BYTES, overLimit, refusalResponse, SIGNALS_MAX_BYTES, type EnvelopeRequest } from "./envelope.server";

const envelope = createEnvelope({ appUrl: "http://portal.example", formTargets: ["https://idp.example"] });

const request = (over: Partial<EnvelopeRequest> = {}): EnvelopeRequest => ({
  method: "GET",
  url: "/crib-search/search?q=pump",
  headers: { host: "portal.example" },
  client: "10.0.0.1",
  ...over,
});

describe("the security envelope", () => {
  it("gives every answer the security headers and a fresh nonce that the CSP names", () => {
    const a = envelope(request());
    const b = envelope(request());
    expect(a.refusal).toBeNull();
    expect(a.cspNonce).not.toBe(b.cspNonce);
    expect(a.cspNonce.length).toBeGreaterThanOrEqual(16);
    const csp = a.headers["Content-Security-Policy"]!;
    expect(csp).toContain(`script-src 'nonce-${a.cspNonce}' 'strict-dynamic'`);
    for (const part of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'self'", "form-action 'self' https://idp.example"]) expect(csp).toContain(part);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).not.toMatch(/unsafe-inline/);
    expect(csp).toMatch(/style-src 'self' 'nonce-[\w+/=]+'/);
    expect(a.headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(a.headers["Referrer-Policy"]).toBe("same-origin");
    expect(a.headers["Strict-Transport-Security"]).toBeUndefined();
  });

  it("sends HSTS when the portal is served over https", () => {
    const secure = createEnvelope({ appUrl: "https://portal.example" });
    expect(secure(request()).headers["Strict-Transport-Security"]).toMatch(/^max-age=\d+/);
  });

  it.each(["TRACE", "PUT", "DELETE", "PATCH", "CONNECT", "PROPFIND"])("refuses %s with 405 and Allow", (method) => {
    const verdict = envelope(request({ method }));
    expect(verdict.refusal).toMatchObject({ status: 405, headers: { Allow: "GET, HEAD, POST" } });
  });

  it("refuses an address over 12 KB with 414", () => {
    expect(envelope(request({ url: `/crib-search/search?q=${"a".repeat(12_300)}` })).refusal?.status).toBe(414);
    expect(envelope(request({ url: `/crib-search/search?q=${"a".repeat(10_000)}` })).refusal).toBeNull();
  });

  it("refuses a POST from another site with 403, by Fetch metadata or by Origin", () => {
    expect(envelope(request({ method: "POST", headers: { host: "portal.example", "sec-fetch-site": "cross-site" } })).refusal?.status).toBe(403);
    expect(envelope(request({ method: "POST", headers: { host: "portal.example", "sec-fetch-site": "same-site" } })).refusal?.status).toBe(403);
    expect(envelope(request({ method: "POST", headers: { host: "portal.example", origin: "http://evil.example" } })).refusal?.status).toBe(403);
    expect(envelope(request({ method: "POST", headers: { host: "portal.example", origin: "null" } })).refusal?.status).toBe(403);
  });

  it("lets a POST from the portal itself through, and a GET from anywhere", () => {
    expect(envelope(request({ method: "POST", headers: { host: "portal.example", "sec-fetch-site": "same-origin" } })).refusal).toBeNull();
    expect(envelope(request({ method: "POST", headers: { host: "portal.example", origin: "http://portal.example" } })).refusal).toBeNull();
    expect(envelope(request({ headers: { host: "portal.example", "sec-fetch-site": "cross-site" } })).refusal).toBeNull();
  });
});

describe("the widgets' cross-origin grant", () => {
  const envelope = createEnvelope({ appUrl: "http://portal.example", embed: { origins: ["https://intranet.example"] } });
  const from = (origin: string, over: Partial<EnvelopeRequest> = {}) =>
    envelope(request({ url: "/api/search?q=pump", headers: { host: "portal.example", origin }, ...over }));

  it("grants an allowed origin's GET, with credentials, and nobody else's", () => {
    expect(from("https://intranet.example").headers).toMatchObject({ "Access-Control-Allow-Origin": "https://intranet.example", "Access-Control-Allow-Credentials": "true", Vary: "Origin" });
    expect(from("https://evil.example").headers["Access-Control-Allow-Origin"]).toBeUndefined();
    expect(from("https://intranet.example", { url: "/crib-search" }).headers["Access-Control-Allow-Origin"]).toBeUndefined();
  });

  it("answers an allowed origin's preflight with the methods and headers it may use", () => {
    const verdict = from("https://intranet.example", { method: "OPTIONS", headers: { host: "portal.example", origin: "https://intranet.example", "access-control-request-method": "GET", "access-control-request-headers": "accept" } });
    expect(verdict.preflight).toBe(true);
    expect(verdict.refusal).toBeNull();
    expect(verdict.headers).toMatchObject({
      "Access-Control-Allow-Origin": "https://intranet.example",
      "Access-Control-Allow-Methods": "GET, HEAD",
      "Access-Control-Allow-Headers": "Accept, Content-Type, X-Request-ID",
    });
  });

  it("grants no preflight to another origin, for a POST, or outside the API", () => {
    const other = from("https://evil.example", { method: "OPTIONS" });
    expect(other.preflight).toBeUndefined();
    expect(other.refusal?.status).toBe(403);
    expect(other.headers["Access-Control-Allow-Origin"]).toBeUndefined();
    const post = from("https://intranet.example", { method: "OPTIONS", headers: { host: "portal.example", origin: "https://intranet.example", "access-control-request-method": "POST" } });
    expect(post.refusal?.status).toBe(403);
    expect(from("https://intranet.example", { method: "OPTIONS", url: "/crib-search" }).refusal?.status).toBe(405);
  });
});

describe("the allowances a request spends", () => {
  const charges = (over: Partial<EnvelopeRequest>) => chargesOf(request(over)).map((c) => `${c.kind} ${c.key}`);

  it("never charge the probes or build assets", () => {
    for (const url of ["/api/health", "/api/ready", "/api/ready?x=1", "/build/_shared/chunk-X.js", "/favicon.svg"]) expect(charges({ url })).toEqual([]);
    expect(charges({ method: "HEAD", url: "/api/ready" })).toEqual([]);
  });

  it("charge pages and the API to the signed-in user, else to the client's address", () => {
    expect(charges({})).toEqual(["requests client:10.0.0.1"]);
    expect(charges({ user: "pat" })).toEqual(["requests user:pat@10.0.0.1"]);
  });

  it("charge a shared account per terminal: one terminal's flood does not lock out another's", () => {
    expect(charges({ user: "line-4", client: "10.0.4.11" })).not.toEqual(charges({ user: "line-4", client: "10.0.4.12" }));
  });

  it("charge signal beacons their own allowance, never the sign-in one", () => {
    expect(charges({ method: "POST", url: "/api/signals", user: "pat" })).toEqual(["beacons user:pat@10.0.0.1"]);
    expect(charges({ method: "POST", url: "/api/signals" })).toEqual(["beacons client:10.0.0.1"]);
  });

  it("count only sign-ins that start a flow, and another site's apart", () => {
    expect(charges({ url: "/login?start=1" })).toEqual(["requests client:10.0.0.1", "signIns client:10.0.0.1"]);
    expect(charges({ url: "/login?returnTo=%2Fbom%2F1" })).toEqual(["requests client:10.0.0.1", "signIns client:10.0.0.1"]);
    expect(charges({ url: "/login?start=1", headers: { "sec-fetch-site": "cross-site" } })).toEqual(["requests client:10.0.0.1", "crossSiteSignIns client:10.0.0.1"]);
    for (const url of ["/login", "/callback?code=x&state=y", "/logout"]) expect(charges({ url })).toEqual(["requests client:10.0.0.1"]);
    expect(charges({ method: "POST", url: "/logout", headers: { host: "portal.example", origin: "http://portal.example" } })).toEqual(["requests client:10.0.0.1"]);
  });

  it("count a sign-in however its path is cased or escaped", () => {
    for (const url of ["/LOGIN?start=1", "/Login/?start=1", "/%6Cogin?start=1", "/%4C%4FGIN?returnTo=%2F"]) {
      expect(charges({ url })).toEqual(["requests client:10.0.0.1", "signIns client:10.0.0.1"]);
    }
    for (const url of ["/API/health", "/api/%72eady"]) expect(charges({ url })).toEqual([]);
  });

  it("are none for a refused request", () => {
    expect(envelope(request({ method: "PUT" })).charges).toEqual([]);
  });

  it("gives another site's sign-ins a generous bound of their own", () => {
    expect(crossSiteAllowance(30)).toBe(300);
    expect(crossSiteAllowance(0)).toBe(0);
  });
});

describe("overLimit", () => {
  it("refuses with 429, Retry-After and the allowance's words", () => {
    const verdict = overLimit(envelope(request()), "signIns", 12);
    expect(verdict.refusal).toEqual({ status: 429, reason: "signIns", message: "Too many sign-in attempts. Please wait a moment and try again.", headers: { "Retry-After": "12" } });
    expect(overLimit(envelope(request()), "requests", 0).refusal?.headers?.["Retry-After"]).toBe("1");
  });
});

describe("refusalResponse", () => {  const page = (message: string, status: number) => new Response(`<h1>${message}</h1>`, { status, headers: { "Content-Type": "text/html" } });

  it("answers the API in its error envelope and pages with the problem page, each with the headers", async () => {
    const api = request({ method: "TRACE", url: "/api/search" });
    const json = refusalResponse(api, envelope(api), "req-1", page);
    expect(json.status).toBe(405);
    expect(await json.json()).toEqual({ error: { message: "This method is not allowed here.", status: 405, requestId: "req-1" } });
    expect(json.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(json.headers.get("Allow")).toBe("GET, HEAD, POST");
    const html = refusalResponse(request({ method: "PUT" }), envelope(request({ method: "PUT" })), "req-2", page);
    expect(await html.text()).toContain("This method is not allowed here.");
    expect(html.headers.get("Content-Security-Policy")).toContain("default-src 'self'");
  });
});

it("lists allowed image hosts in img-src", () => {
  expect(contentSecurityPolicy("n", { imageHosts: ["https://images.example"] })).toContain("img-src 'self' https://images.example data:");
});

describe("bounds on what a request may carry", () => {
  it("refuses a post whose declared body is over its bound before any of it is read, a signal batch with a larger one", () => {
    const post = (url: string, length: number) => envelope(request({ method: "POST", url, headers: { host: "portal.example", origin: "http://portal.example", "content-length": String(length) } }));
    expect(post("/theme", FORM_MAX_BYTES).refusal).toBeNull();
    expect(post("/theme", FORM_MAX_BYTES + 1).refusal).toMatchObject({ status: 413, reason: "body_too_large" });
    expect(post("/backchannel-logout", 300_000_000).refusal?.status).toBe(413);
    expect(post("/api/signals", SIGNALS_MAX_BYTES).refusal).toBeNull();
    expect(post("/api/signals", SIGNALS_MAX_BYTES + 1).refusal?.status).toBe(413);
  });

  it.each(["a b", "<", "[", "portal.example:99999x", ""])("answers a Host header that names no host (%j) with a clean 400", (host) => {
    expect(envelope(request({ headers: { host } })).refusal).toMatchObject({ status: 400, reason: "bad_host" });
    expect(envelope(request({ headers: { host: "portal.example", "x-forwarded-host": host } })).refusal?.status).toBe(400);
  });

  it("takes host names, addresses and ports", () => {
    for (const host of ["portal.example", "portal.example:8080", "10.0.0.5", "[::1]:3000", "localhost"]) expect(envelope(request({ headers: { host } })).refusal).toBeNull();
  });
});
