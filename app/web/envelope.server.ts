import { randomBytes } from "node:crypto";

/**
 * The security envelope of every answer, applied by the HTTP server (scripts/server.mjs) before a
 * request reaches Remix, so that it holds for pages, error pages, data requests, resource routes,
 * the API, downloads and static files alike: the methods the portal answers, cross-site refusal of
 * state-changing requests, per-client rate limits, and the security headers with a fresh
 * Content-Security-Policy nonce, which the document render puts on the scripts it writes.
 */

export interface EnvelopeRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The client's address, for the rate limits. */
  client: string;
}

export interface Verdict {
  /** Headers every answer to this request carries. */
  headers: Record<string, string>;
  /** Set when the request is refused before it reaches the app. */
  refusal: { status: number; message: string; headers?: Record<string, string> } | null;
  /** The nonce of this answer's scripts. */
  cspNonce: string;
  /** A CORS preflight an allowed origin made: answered 204 with `headers` (its grant), nothing else. */
  preflight?: true;
}

export interface EnvelopeOptions {
  /** The portal's public origin (APP_URL): HSTS on https. */
  appUrl: string;
  /** Origins forms may post to besides the portal (the identity provider's sign-in). */
  formTargets?: string[];
  /** Hosts images may come from besides the portal. */
  imageHosts?: string[];
  /** Requests per minute per client on pages and the API; 0 turns the limit off. */
  requestsPerMinute?: number;
  /** Sign-in requests and POSTs per minute per client; 0 turns the limit off. */
  signInsPerMinute?: number;
  now?: () => number;
  /**
   * Origins whose pages may read the API (the embeddable widgets). Always with credentials: the
   * widgets send the browser's cookies, which with sign-in on is how the API knows the user.
   */
  embed?: { origins: string[] };
}

const METHODS = new Set(["GET", "HEAD", "POST"]);
/** What the widgets may do from an allowed origin: read. */
const EMBED_METHODS = ["GET", "HEAD"];
const embedGrant = (origin: string) => ({ "Access-Control-Allow-Origin": origin, "Access-Control-Allow-Credentials": "true" });
/** No link of the portal comes near this (a query is cut to 500 characters anyway); a longer address is refused before any work. */
export const MAX_URL_LENGTH = 12_288;
const SIGN_IN_PATHS = /^\/(login|callback)(\/|\?|$)/;
/** Build assets are fingerprinted files: a page's own assets never count against its client. */
const ASSETS = /^\/(build\/|favicon\.)/;

/** A token bucket per client: `perMinute` requests a minute, `burst` at once. */
class RateLimit {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(
    private readonly perMinute: number,
    private readonly burst: number,
    private readonly now: () => number,
  ) {}

  /** Seconds until the client may try again, or 0 when this request is allowed. */
  take(client: string): number {
    const now = this.now();
    const rate = this.perMinute / 60_000;
    const bucket = this.buckets.get(client) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) * rate);
    bucket.at = now;
    this.buckets.set(client, bucket);
    if (this.buckets.size > 10_000) this.forgetFull(now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / rate / 1000));
  }

  /** Clients whose buckets have filled up again are forgotten, so the map stays small. */
  private forgetFull(now: number): void {
    const rate = this.perMinute / 60_000;
    for (const [client, bucket] of this.buckets) if (bucket.tokens + (now - bucket.at) * rate >= this.burst) this.buckets.delete(client);
  }
}

const header = (headers: EnvelopeRequest["headers"], name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** A cross-site request by the Fetch metadata the browser sends, else by its Origin. */
function isCrossSite(request: EnvelopeRequest): boolean {
  const site = header(request.headers, "sec-fetch-site");
  if (site) return site !== "same-origin" && site !== "none";
  const origin = header(request.headers, "origin");
  if (!origin) return false;
  const host = header(request.headers, "host");
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

export function contentSecurityPolicy(nonce: string, options: Pick<EnvelopeOptions, "formTargets" | "imageHosts">): string {
  const list = (extra: string[] | undefined) => ["'self'", ...(extra ?? [])].join(" ");
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    // React writes a few style attributes; styles run no code.
    "style-src 'self' 'unsafe-inline'",
    `img-src ${list(options.imageHosts)} data:`,
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'self'",
    `form-action ${list(options.formTargets)}`,
  ].join("; ");
}

export function createEnvelope(options: EnvelopeOptions): (request: EnvelopeRequest) => Verdict {
  const now = options.now ?? Date.now;
  const general = options.requestsPerMinute ? new RateLimit(options.requestsPerMinute, Math.max(10, options.requestsPerMinute / 4), now) : null;
  const signIns = options.signInsPerMinute ? new RateLimit(options.signInsPerMinute, Math.max(3, options.signInsPerMinute / 2), now) : null;
  const https = options.appUrl.startsWith("https:");

  return (request) => {
    const cspNonce = randomBytes(16).toString("base64");
    const headers: Record<string, string> = {
      "Content-Security-Policy": contentSecurityPolicy(cspNonce, options),
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "same-origin",
      "X-Frame-Options": "SAMEORIGIN",
      "Cross-Origin-Opener-Policy": "same-origin",
      "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
      ...(https ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
    };
    const refuse = (status: number, message: string, extra?: Record<string, string>): Verdict => ({
      headers,
      cspNonce,
      refusal: { status, message, ...(extra ? { headers: extra } : {}) },
    });

    const method = request.method.toUpperCase();
    const origin = header(request.headers, "origin")?.toLowerCase();
    const embedded = options.embed && /^\/api\//.test(request.url) && origin !== undefined && options.embed.origins.includes(origin);
    if (method === "OPTIONS" && options.embed && /^\/api\//.test(request.url)) {
      // The widgets' CORS preflight (a request with a header or mode a simple GET lacks).
      headers.Vary = "Origin";
      const asked = header(request.headers, "access-control-request-method")?.toUpperCase();
      if (!embedded || (asked !== undefined && !EMBED_METHODS.includes(asked))) return refuse(403, "This site may not use the portal's API.");
      Object.assign(headers, embedGrant(origin!), {
        "Access-Control-Allow-Methods": EMBED_METHODS.join(", "),
        "Access-Control-Allow-Headers": "Accept, Content-Type, X-Request-ID",
        "Access-Control-Max-Age": "600",
      });
      return { headers, refusal: null, cspNonce, preflight: true };
    }
    if (!METHODS.has(method)) return refuse(405, "This method is not allowed here.", { Allow: "GET, HEAD, POST" });
    if (request.url.length > MAX_URL_LENGTH) return refuse(414, "This address is too long. Remove some filters and try again.");
    if (method === "POST" && isCrossSite(request)) {
      return refuse(403, "This form was sent from another site and has been refused. Open the portal and try again.");
    }
    const path = request.url;
    if (signIns && (method === "POST" || SIGN_IN_PATHS.test(path))) {
      const wait = signIns.take(request.client);
      if (wait > 0) return refuse(429, "Too many sign-in attempts. Please wait a moment and try again.", { "Retry-After": String(wait) });
    }
    if (general && !ASSETS.test(path)) {
      const wait = general.take(request.client);
      if (wait > 0) return refuse(429, "Too many requests. Please wait a moment and try again.", { "Retry-After": String(wait) });
    }
    // The widgets on an allowed origin's pages read the API (GET only: posts stay same-site).
    if (options.embed && EMBED_METHODS.includes(method) && /^\/api\//.test(path)) {
      headers.Vary = "Origin";
      if (embedded) Object.assign(headers, embedGrant(origin!));
    }
    return { headers, refusal: null, cspNonce };
  };
}

/** The answer to a refused request: the API's error envelope under /api, else the problem page. */
export function refusalResponse(request: EnvelopeRequest, verdict: Verdict, requestId: string, page: (message: string, status: number) => Response): Response {
  const refusal = verdict.refusal!;
  const base = request.url.startsWith("/api/") || request.url === "/api"
    ? new Response(JSON.stringify({ error: { message: refusal.message, status: refusal.status, requestId } }), {
        status: refusal.status,
        headers: { "Content-Type": "application/json; charset=utf-8" },
      })
    : page(refusal.message, refusal.status);
  const headers = new Headers(base.headers);
  for (const [name, value] of Object.entries({ ...verdict.headers, ...refusal.headers, "Cache-Control": "no-store", "X-Request-ID": requestId })) {
    headers.set(name, value);
  }
  return new Response(request.method.toUpperCase() === "HEAD" ? null : base.body, { status: refusal.status, headers });
}
