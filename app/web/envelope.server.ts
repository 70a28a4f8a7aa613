import { randomBytes } from "node:crypto";
import type { Charge as AnyCharge } from "~/lib/rate-limits.server";

/**
 * The security envelope of every answer, applied by the HTTP server (scripts/server.mjs) before a
 * request reaches Remix, so that it holds for pages, error pages, data requests, resource routes,
 * the API, downloads and static files alike: the methods the portal answers, cross-site refusal of
 * state-changing requests, which rate limits a request is charged to, and the security headers
 * with a fresh Content-Security-Policy nonce, which the document render puts on the scripts it
 * writes. The limits themselves are counted by rate-limits.server.ts.
 */

export interface EnvelopeRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The client's address (the proxy's word for it when TRUST_PROXY trusts the proxy), for the rate limits. */
  client: string;
  /** The signed-in user, when the session cookie names one: limited as that user wherever they connect from. */
  user?: string | null;
}

/**
 * The allowances a request spends:
 * - `requests`: pages and the API, per user or client;
 * - `signIns`: sign-ins started from the portal or typed in (each one a trip to the provider);
 * - `crossSiteSignIns`: sign-ins another site's page sent the browser to, counted apart and
 *   generously, so that a page elsewhere cannot spend a person's sign-in allowance;
 * - `beacons`: the browser's signal batches, which never spend the other two.
 */
export type LimitKind = "requests" | "signIns" | "crossSiteSignIns" | "beacons";
export type Charge = AnyCharge<LimitKind>;

/** A generous bound of sign-ins another site may send a client to: ten times its own allowance. */
export const crossSiteAllowance = (signInsPerMinute: number) => (signInsPerMinute ? Math.max(100, signInsPerMinute * 10) : 0);

export interface Verdict {
  /** Headers every answer to this request carries. */
  headers: Record<string, string>;
  /** Set when the request is refused before it reaches the app; `reason` names why for the log and the metrics. */
  refusal: { status: number; message: string; reason: RefusalReason; headers?: Record<string, string> } | null;
  /** The nonce of this answer's scripts. */
  cspNonce: string;
  /** A CORS preflight an allowed origin made: answered 204 with `headers` (its grant), nothing else. */
  preflight?: true;
  /** The rate limits this request counts against (none for a refused one). */
  charges: Charge[];
  /** The signed-in user the session cookie names (looked up for the limits), for the log. */
  user?: string | null;
}

/** Why a request was refused before the app: a rate limit's kind, or what was wrong with it. */
export type RefusalReason = LimitKind | "method" | "url_too_long" | "cross_site" | "cors" | "body_too_large" | "bad_host";

export interface EnvelopeOptions {
  /** The portal's public origin (APP_URL): HSTS on https. */
  appUrl: string;
  /** Origins forms may post to besides the portal (the identity provider's sign-in). */
  formTargets?: string[];
  /** Hosts images may come from besides the portal. */
  imageHosts?: string[];
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
/** The most a form post may carry (the portal's forms send a few fields); a signal batch has its own bound. */
export const FORM_MAX_BYTES = 16 * 1024;
/** The most a batch of the browser's signals may weigh. */
export const SIGNALS_MAX_BYTES = 64 * 1024;
/** No link of the portal comes near this (a query is cut to 500 characters anyway); a longer address is refused before any work. */
export const MAX_URL_LENGTH = 12_288;
/** Build assets are fingerprinted files: a page's own assets never count against its client. */
const ASSETS = /^\/(build\/|favicon\.)/;
/** The probes of load balancers and orchestrators: never limited, or a limit would take the portal out of service. */
const PROBES = /^\/api\/(health|ready)\/?(\?|$)/;
const BEACONS = /^\/api\/signals\/?(\?|$)/;

const header = (headers: EnvelopeRequest["headers"], name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * Whether this request starts a sign-in: /login with `returnTo` or `start` goes to the provider
 * (plain /login only answers with a redirect to `?start=1`, counted there, or with the page to
 * another site's link; /callback finishes a flow already counted).
 */
function startsSignIn(method: string, url: string): boolean {
  if (method !== "GET" && method !== "HEAD") return false;
  const query = url.indexOf("?");
  if (query < 0 || !/^\/login\/?$/.test(canonicalPath(url))) return false;
  const params = new URLSearchParams(url.slice(query + 1));
  return params.has("returnTo") || params.has("start");
}

/**
 * A request's path as the router matches it: percent-escapes decoded and any case lowered (the
 * routes match either way), so that `/LOGIN` or `/%6Cogin` is counted, exempted and refused as
 * `/login` is.
 */
export function canonicalPath(url: string): string {
  const path = url.split("?", 1)[0]!;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    decoded = path;
  }
  return decoded.toLowerCase();
}

/** The most the body of a post to this address may weigh. */
export function bodyLimitOf(url: string): number {
  return BEACONS.test(canonicalPath(url)) ? SIGNALS_MAX_BYTES : FORM_MAX_BYTES;
}

/** Whether the Host (or X-Forwarded-Host) header names a host an address can be made of. */
function isHostHeader(value: string | undefined): boolean {
  if (value === undefined) return true;
  if (value === "" || /[\s<>"{}|\\^`]/.test(value)) return false;
  try {
    return new URL(`http://${value}/`).host !== "";
  } catch {
    return false;
  }
}

/** The allowances a request spends (see {@link LimitKind}). */
export function chargesOf(request: EnvelopeRequest): Charge[] {
  const method = request.method.toUpperCase();
  const path = canonicalPath(request.url);
  if (ASSETS.test(path) || ((method === "GET" || method === "HEAD") && PROBES.test(path))) return [];
  // A person on one terminal: a line's terminals that share one account do not share its allowance.
  const who = request.user ? `user:${request.user}@${request.client}` : `client:${request.client}`;
  if (method === "POST" && BEACONS.test(path)) return [{ kind: "beacons", key: who }];
  const charges: Charge[] = [{ kind: "requests", key: who }];
  if (startsSignIn(method, request.url)) {
    const crossSite = header(request.headers, "sec-fetch-site") === "cross-site";
    charges.push({ kind: crossSite ? "crossSiteSignIns" : "signIns", key: `client:${request.client}` });
  }
  return charges;
}

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
    // No inline style but the `<style>` elements given the nonce (the export preview's rules): no style attributes.
    `style-src 'self' 'nonce-${nonce}'`,
    `img-src ${list(options.imageHosts)} data:`,
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'self'",
    `form-action ${list(options.formTargets)}`,
  ].join("; ");
}

export function createEnvelope(options: EnvelopeOptions): (request: EnvelopeRequest) => Verdict {
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
    const refuse = (status: number, reason: RefusalReason, message: string, extra?: Record<string, string>): Verdict => ({
      headers,
      cspNonce,
      refusal: { status, reason, message, ...(extra ? { headers: extra } : {}) },
      charges: [],
    });

    const method = request.method.toUpperCase();
    const origin = header(request.headers, "origin")?.toLowerCase();
    const embedded = options.embed && /^\/api\//.test(request.url) && origin !== undefined && options.embed.origins.includes(origin);
    if (method === "OPTIONS" && options.embed && /^\/api\//.test(request.url)) {
      // The widgets' CORS preflight (a request with a header or mode a simple GET lacks).
      headers.Vary = "Origin";
      const asked = header(request.headers, "access-control-request-method")?.toUpperCase();
      if (!embedded || (asked !== undefined && !EMBED_METHODS.includes(asked))) return refuse(403, "cors", "This site may not use the portal's API.");
      Object.assign(headers, embedGrant(origin!), {
        "Access-Control-Allow-Methods": EMBED_METHODS.join(", "),
        "Access-Control-Allow-Headers": "Accept, Content-Type, X-Request-ID",
        "Access-Control-Max-Age": "600",
      });
      return { headers, refusal: null, cspNonce, preflight: true, charges: [] };
    }
    if (!isHostHeader(header(request.headers, "host")) || !isHostHeader(header(request.headers, "x-forwarded-host"))) {
      return refuse(400, "bad_host", "This request names no valid host.");
    }
    if (!METHODS.has(method)) return refuse(405, "method", "This method is not allowed here.", { Allow: "GET, HEAD, POST" });
    if (request.url.length > MAX_URL_LENGTH) return refuse(414, "url_too_long", "This address is too long. Remove some filters and try again.");
    if (method === "POST" && isCrossSite(request)) {
      return refuse(403, "cross_site", "This form was sent from another site and has been refused. Open the portal and try again.");
    }
    // What the posts' own readers refuse past their bound anyway (http.server.ts), refused before any of it is read.
    const bodyLimit = bodyLimitOf(request.url);
    if (method === "POST" && Number(header(request.headers, "content-length") ?? 0) > bodyLimit) {
      const message = bodyLimit === SIGNALS_MAX_BYTES ? `A batch of signals may be at most ${SIGNALS_MAX_BYTES / 1024} KiB.` : "This form is larger than the portal accepts. Go back to the page and try again.";
      return refuse(413, "body_too_large", message);
    }
    const path = request.url;
    // The widgets on an allowed origin's pages read the API (GET only: posts stay same-site).
    if (options.embed && EMBED_METHODS.includes(method) && /^\/api\//.test(path)) {
      headers.Vary = "Origin";
      if (embedded) Object.assign(headers, embedGrant(origin!));
    }
    return { headers, refusal: null, cspNonce, charges: chargesOf(request) };
  };
}

/** A verdict turned into a refusal: over a rate limit. */
export function overLimit(verdict: Verdict, kind: LimitKind, retryAfterSeconds: number): Verdict {
  const message =
    kind === "requests" ? "Too many requests. Please wait a moment and try again."
    : kind === "beacons" ? "Too many signals. Please wait a moment."
    : "Too many sign-in attempts. Please wait a moment and try again.";
  return { ...verdict, charges: [], refusal: { status: 429, reason: kind, message, headers: { "Retry-After": String(Math.max(1, retryAfterSeconds)) } } };
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
