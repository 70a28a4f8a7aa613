/**
 * The security envelope and sign-in over real HTTP: open redirects (Back links and Locations), the
 * CSP and its nonces, nosniff everywhere, debug pages without secrets, cross-site POSTs, refused
 * methods, the sign-in rate limit, and what a portal with sign-in on answers without a session.
 *
 * The suite's own server has sign-in off; the tests that need sign-in, limits or debug pages off
 * start portals of their own (and the test identity provider) and stop them afterwards.
 */
import { spawnSync } from "node:child_process";
import http from "node:http";
import { createCookie } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findBomHead } from "../catalogue-probes";
import { CLIENT_SECRET, startIdp, type TestIdp } from "../idp/server";
import { OPEN_REDIRECTS } from "../open-redirects";
import { freePort } from "../processes";
import { searchUrl } from "../search-urls";
import { scriptsNamedBy } from "../support/page-scripts";
import { anchors, hrefs } from "./html";
import { cacheDb, startPortal, type TestPortal } from "./portal";
import { get, url } from "./server";

/** scripts/e2e-server.mjs's session secret for portals with sign-in on. */
const SESSION_SECRET = "a-session-secret-for-the-tests-only";
const FUSION_API_KEY = "fusion-api-key-for-the-tests-only";
const FUSION_PASSWORD = "fusion-password-for-the-tests-only";
const EVIL = "evil.example";


/** Whether `href`, as a browser on `base` resolves it, stays on `base`'s site. */
function staysOnSite(href: string, base: string): boolean {
  try {
    return new URL(href, base).origin === new URL(base).origin;
  } catch {
    return false;
  }
}

/** Whether a response says nosniff, once: the envelope sets it for every answer. */
function nosniff(value: string | string[] | null | undefined): boolean {
  const header = Array.isArray(value) ? value.join(",") : (value ?? "");
  return header.trim().toLowerCase() === "nosniff";
}

function cspNonce(response: Response): string {
  const csp = response.headers.get("content-security-policy");
  expect(csp, "Content-Security-Policy").toBeTruthy();
  const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp!)?.[1];
  expect(nonce, `a script nonce in ${csp}`).toBeTruthy();
  return nonce!;
}

/** A request with any method (fetch refuses TRACE), answered without following redirects. */
function raw(target: string, method: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(target, { method, headers }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    request.on("error", reject);
    request.end();
  });
}

/** Bodies that are no form: what a scanner sends to a form's address. */
const NOT_FORMS: [string, Record<string, string>, string][] = [
  ["JSON", { "Content-Type": "application/json" }, '{"mode":"dark"}'],
  ["XML", { "Content-Type": "application/xml" }, "<mode>dark</mode>"],
  ["no Content-Type", {}, "mode=dark"],
  ["a multipart type without its boundary", { "Content-Type": "multipart/form-data" }, "mode=dark"],
];
let item: string;
let head: string;

beforeAll(async () => {
  const body = await (await get("/api/search?q=pump&rows=1")).json();
  item = body.data.docs[0].item_number_s;
  expect(item).toBeTruthy();
  ({ head } = await findBomHead(get, "asset", (lines) => lines.length > 0, "has lines"));
});

describe("open redirects never leave the site", () => {
  it("there are at least 40 payloads, all distinct", () => {
    expect(new Set(OPEN_REDIRECTS).size).toBe(OPEN_REDIRECTS.length);
    expect(OPEN_REDIRECTS.length).toBeGreaterThanOrEqual(40);
  });

  /** The pages, with the text of their Back link (Where Used leads back through its breadcrumbs). */
  const pages: [string, () => string, string | null][] = [
    ["an item page", () => `/product/${encodeURIComponent(item)}`, "← Back"],
    ["a missing item's error panel", () => "/product/NO-SUCH-ITEM-0000", "← Back to Search"],
    ["a Where Used page", () => `/where-used/${encodeURIComponent(item)}`, null],
    ["a BOM's lines page", () => `/boms/${encodeURIComponent(head)}`, "← Back to Search"],
    ["an item's BOM page (or its error panel when it is in no BOM)", () => `/bom/${encodeURIComponent(item)}`, "← Back to Search"],
    ["a head's old BOM address (redirected to its lines)", () => `/bom/${encodeURIComponent(head)}`, "← Back to Search"],
    ["a missing item's BOM error panel", () => "/bom/NO-SUCH-ITEM-0000", "← Back"],
    ["a missing head's lines error panel", () => "/boms/NO-SUCH-HEAD-0000", "← Back"],
  ];

  it.each(pages)("as the Back link of %s", async (_what, path, backText) => {
    for (const payload of OPEN_REDIRECTS) {
      let target = `${path()}?${new URLSearchParams({ back: payload })}`;
      let response = await get(target, { redirect: "manual" });
      // A BOM page with one kind of BOM leads to that kind's page, a head's old BOM address to its
      // lines, with the back parameter as it came.
      for (let hops = 0; response.status >= 300 && response.status < 400 && hops < 3; hops++) {
        const location = response.headers.get("location")!;
        expect(staysOnSite(location, url("/")), `Location ${location} of ${target}`).toBe(true);
        target = location;
        response = await get(target, { redirect: "manual" });
      }
      // A page or its error panel (404), never a failure.
      expect([200, 404], target).toContain(response.status);
      const html = await response.text();
      for (const href of hrefs(html)) expect(staysOnSite(href, url("/")), `${href} on ${target}`).toBe(true);
      if (backText === null) continue;
      // The payload was refused: the Back link leads home.
      const back = anchors(html).filter((a) => a.text.startsWith(backText));
      expect(back.length, `a Back link on ${target}`).toBeGreaterThan(0);
      for (const a of back) expect(a.href, target).toBe("/crib-search");
    }
  });

  it("as the Location of /login with sign-in off", async () => {
    for (const payload of OPEN_REDIRECTS) {
      const response = await get(`/login?${new URLSearchParams({ returnTo: payload })}`, { redirect: "manual" });
      expect(response.status, payload).toBe(302);
      expect(response.headers.get("location"), payload).toBe("/crib-search");
    }
  });
});

describe("the Content-Security-Policy and nosniff", () => {
  const responses: [string, () => Promise<Response>][] = [
    ["a page", () => get("/crib-search")],
    ["a search page", () => get(searchUrl({ q: "pump" }))],
    ["an error page", () => get("/no/such/page")],
    ["a missing item's page", () => get("/product/NO-SUCH-ITEM-0000")],
    ["the API", () => get("/api/search?q=pump&rows=1")],
    ["an API error", () => get("/api/products/NO-SUCH-ITEM-0000")],
    ["a CSV download", () => get("/crib-search/export.csv?q=pump")],
    ["a static file", () => get("/favicon.svg")],
    ["a refused cross-site POST", () => get("/api/search", { method: "POST", headers: { Origin: `http://${EVIL}` } })],
    ["a refused method", () => get("/crib-search", { method: "PUT" })],
  ];

  it.each(responses)("%s carries the CSP with a nonce and nosniff", async (_what, send) => {
    const response = await send();
    cspNonce(response);
    const csp = response.headers.get("content-security-policy")!;
    for (const directive of ["default-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'self'"]) expect(csp).toContain(directive);
    expect(csp).not.toContain("unsafe-eval");
    expect(nosniff(response.headers.get("x-content-type-options")), "nosniff").toBe(true);
  });

  it("a build asset carries them too", async () => {
    const html = await (await get("/crib-search")).text();
    const asset = scriptsNamedBy(html)[0];
    expect(asset, "a script of the build on the page").toBeTruthy();
    // As a browser asks for it: the copy the build compressed, with the same headers.
    const response = await get(asset!, { headers: { "accept-encoding": "br, gzip" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("br");
    cspNonce(response);
    expect(nosniff(response.headers.get("x-content-type-options")), "nosniff").toBe(true);
  });

  it("the nonce differs from one response to the next", async () => {
    const nonces = await Promise.all([get("/crib-search"), get("/crib-search"), get("/favicon.svg"), get("/api/health")].map(async (r) => cspNonce(await r)));
    expect(new Set(nonces).size).toBe(nonces.length);
  });

  const pages: [string, () => string][] = [
    ["the home page", () => "/crib-search"],
    ["a search page", () => searchUrl({ q: "pump" })],
    ["an item page", () => `/product/${encodeURIComponent(item)}`],
    ["an unknown page", () => "/no/such/page"],
    ["a missing item's page", () => "/product/NO-SUCH-ITEM-0000"],
  ];
  it.each(pages)("every script of %s carries that response's nonce", async (_what, path) => {
    const response = await get(path());
    const nonce = cspNonce(response);
    const scripts = [...(await response.text()).matchAll(/<script\b[^>]*>/gi)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(` nonce="${nonce}"`);
  });
});

describe("cross-site POSTs and methods", () => {
  const crossSite: [string, Record<string, string>][] = [
    ["Origin: another site", { Origin: `http://${EVIL}` }],
    ["Sec-Fetch-Site: cross-site", { "Sec-Fetch-Site": "cross-site" }],
  ];
  for (const [how, headers] of crossSite) {
    it(`a POST with ${how} to /logout gets 403 with a page that says why`, async () => {
      const response = await get("/logout", { method: "POST", headers, body: new URLSearchParams({ csrf: "x" }), redirect: "manual" });
      expect(response.status).toBe(403);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(await response.text()).toContain("This form was sent from another site and has been refused.");
    });

    it(`a POST with ${how} to /api/signals gets 403 in the API's error envelope`, async () => {
      const response = await get("/api/signals", { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: "{}" });
      expect(response.status).toBe(403);
      const body = await response.json();
      expect(body.error.status).toBe(403);
      expect(body.error.message).toContain("sent from another site");
    });
  }

  it("a POST from the site itself is not refused as cross-site", async () => {
    const response = await get("/api/signals", { method: "POST", headers: { Origin: url("/").replace(/\/$/, ""), "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json" }, body: "{}" });
    expect(response.status).not.toBe(403);
    expect(response.status).toBeLessThan(500);
  });

  for (const path of ["/theme", "/lite"]) {
    it.each(NOT_FORMS)(`POST ${path} with %s answers 400 with a message, not 500`, async (_what, headers, body) => {
      const response = await get(path, { method: "POST", headers, body, redirect: "manual" });
      expect(response.status).toBe(400);
      const text = await response.text();
      expect(text).toContain("This form could not be read.");
      expect(text).not.toMatch(/TypeError|\bat \S+ \(/);
    });
  }

  it("POST /theme with a form still sets the theme and goes back", async () => {
    const response = await get("/theme", { method: "POST", body: new URLSearchParams({ mode: "dark", back: "/crib-search" }), redirect: "manual" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/crib-search");
  });

  it.each(["TRACE", "PUT", "DELETE"])("%s gets 405 with Allow", async (method) => {
    const response = await raw(url("/crib-search"), method);
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe("GET, HEAD, POST");
    expect(nosniff(response.headers["x-content-type-options"]), "nosniff").toBe(true);
    expect(response.headers["content-security-policy"]).toMatch(/script-src 'nonce-/);
  });
});

describe("sign-in off", () => {
  it.each(["/login", "/callback", "/callback?code=x&state=y"])("%s leads to the search", async (path) => {
    const response = await get(path, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/crib-search");
  });

  it("pages show no Logout button and the API needs no session", async () => {
    const html = await (await get("/crib-search")).text();
    expect(html).not.toContain("Logout");
    expect(html).not.toContain('action="/logout"');
    expect((await get("/api/config")).status).toBe(200);
  });
});

describe("a partial sign-in configuration", () => {
  it.each([
    ["the issuer without a client id", { OIDC_ISSUER: "https://idp.example.com", SESSION_SECRET }, "OIDC_CLIENT_ID"],
    ["a misspelt client id", { OIDC_ISSUER: "https://idp.example.com", OIDC_CLIENTID: "crib-search", SESSION_SECRET }, "OIDC_CLIENTID"],
    ["a client secret alone", { OIDC_CLIENT_SECRET: CLIENT_SECRET }, "OIDC_ISSUER"],
  ])("stops the start, naming what is wrong: %s", async (_what, env, named) => {
    const port = await freePort();
    // The server itself, not the test launcher (which clears the machine's sign-in variables).
    const server = spawnSync(process.execPath, ["scripts/serve.mjs", "build/index.js"], {
      env: { PATH: process.env.PATH, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", WEB_CONCURRENCY: "1", CATALOG_DB: cacheDb("partial-sign-in.db"), ...env },
      encoding: "utf8",
      // A portal that starts anyway serves until it is stopped: that is the failure.
      timeout: 60_000,
    });
    expect(server.status, "the server's exit code").not.toBe(0);
    expect(server.status, "it stopped by itself").not.toBeNull();
    expect(server.stderr).toMatch(new RegExp(`^  ${named}: `, "m"));
  });
});

describe("the debug pages by default", () => {
  let portal: TestPortal;

  beforeAll(async () => {
    // Sign-in on (nothing listens at the issuer: these pages never ask it), DEBUG_PAGES unset.
    portal = await startPortal({ E2E_CATALOG_DB: cacheDb("debug-default.db"), E2E_SAMPLE_ITEMS: "50", E2E_OIDC_ISSUER: `http://127.0.0.1:${await freePort()}` });
  }, 150_000);

  afterAll(async () => {
    await portal?.stop();
  });

  it.each(["/debug", "/okta-debug"])("%s is not there in production with sign-in on", async (path) => {
    expect((await fetch(`${portal.url}${path}`)).status).toBe(404);
  });

  it.each(["/debug", "/okta-debug"])("%s is there without sign-in", async (path) => {
    expect((await get(path)).status).toBe(200);
  });
});

describe("a portal with sign-in on", () => {
  let idp: TestIdp;
  let portal: TestPortal;
  const sso = (path: string) => `${portal.url}${path}`;

  beforeAll(async () => {
    const port = await freePort();
    idp = await startIdp({ port: await freePort(), portals: [`http://127.0.0.1:${port}`] });
    // Fusion is configured (with a key) but never there: its key is a secret the debug pages must not show.
    portal = await startPortal(
      {
        E2E_OIDC_ISSUER: idp.issuer,
        E2E_CATALOG_DB: cacheDb("sso.db"),
        // An address with credentials in it, as operators write them: the password is a secret too.
        E2E_FUSION_URL: `http://svc:${FUSION_PASSWORD}@127.0.0.1:${await freePort()}`,
        FUSION_API_KEY,
        // Off by default in production with sign-in on.
        DEBUG_PAGES: "true",
      },
      port,
    );
  }, 150_000);

  afterAll(async () => {
    await portal?.stop();
    await idp?.close();
  });

  it("/api/search answers 401 in the error envelope without a session", async () => {
    const response = await fetch(sso("/api/search?q=pump"));
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect((await response.json()).error).toMatchObject({ status: 401, message: "Authentication required" });
  });

  it("POST /logout without a body answers like a logout, not a 500", async () => {
    for (const headers of [{}, { "Content-Type": "application/x-www-form-urlencoded" }, { "Content-Type": "application/json" }] as Record<string, string>[]) {
      const response = await fetch(sso("/logout"), { method: "POST", headers: { Origin: portal.url, ...headers }, redirect: "manual" });
      expect(response.status, JSON.stringify(headers)).toBe(302);
      // A logout: to the provider's end of session (decision 024: whichever replica gets it), naming
      // the portal and the way back to its signed-out page with a state (decision 041).
      const location = new URL(response.headers.get("location")!, portal.url);
      expect(location.href.startsWith(`${idp.issuer}/`), location.href).toBe(true);
      expect(location.searchParams.get("client_id")).toBeTruthy();
      expect(location.searchParams.get("post_logout_redirect_uri")).toMatch(/\/signed-out$/);
      expect(location.searchParams.get("state")).toMatch(/^[\w-]{16,}$/);
    }
  });

  it.each(["/api/health", "/api/ready"])("%s answers 200 without a session", async (path) => {
    expect((await fetch(sso(path))).status).toBe(200);
  });

  it.each(["/profile", "/settings", "/admin", "/crib-search", "/crib-search/search?q=pump"])("%s redirects to sign-in and back", async (path) => {
    const response = await fetch(sso(path), { redirect: "manual" });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location")!, portal.url);
    expect(location.origin).toBe(portal.url);
    expect(location.pathname).toBe("/login");
    expect(location.searchParams.get("returnTo")).toBe(path);
  });

  it("/login opened directly starts sign-in through ?start=1; another site's link to it shows the page and its button", async () => {
    for (const headers of [{}, { "Sec-Fetch-Site": "none" }, { "Sec-Fetch-Site": "same-origin" }, { "Sec-Fetch-Site": "same-site" }] as Record<string, string>[]) {
      const response = await fetch(sso("/login"), { redirect: "manual", headers });
      expect(response.status, JSON.stringify(headers)).toBe(302);
      expect(response.headers.get("location"), JSON.stringify(headers)).toBe("/login?start=1");
      expect(response.headers.get("cache-control")).toBe("no-store");
    }
    const started = await fetch(sso("/login?start=1"), { redirect: "manual" });
    expect(started.status).toBe(302);
    expect(new URL(started.headers.get("location")!).origin).toBe(idp.issuer);
    const fromElsewhere = await fetch(sso("/login"), { redirect: "manual", headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(fromElsewhere.status).toBe(200);
    const html = await fromElsewhere.text();
    expect(html).toContain("Sign in with SSO");
    expect(html).toContain('<input type="hidden" name="start" value="1"/>');
  });

  it("/login reached by a picture or a fetch (a protected page's redirect) starts no flow and leaves the pending one's way back alone", async () => {
    for (const dest of ["image", "empty", "script", "style"]) {
      const response = await fetch(sso(`/login?${new URLSearchParams({ returnTo: "/images/parts/NO-SUCH-1.jpg" })}`), { redirect: "manual", headers: { "Sec-Fetch-Dest": dest } });
      expect(response.status, dest).toBe(401);
      // No flow cookie (the way back, the provider's state); the signals session is every visitor's.
      expect(response.headers.getSetCookie().filter((c) => !c.startsWith("crib-sid=")), dest).toEqual([]);
      expect(response.headers.get("location"), dest).toBeNull();
    }
    const page = await fetch(sso(`/login?${new URLSearchParams({ returnTo: "/crib-search" })}`), { redirect: "manual", headers: { "Sec-Fetch-Dest": "document" } });
    expect(page.status).toBe(302);
    expect(new URL(page.headers.get("location")!).origin).toBe(idp.issuer);
    expect(page.headers.getSetCookie().some((c) => c.startsWith("crib-return="))).toBe(true);
  });

  it("/login?returnTo=<payload> goes to the provider and keeps only a same-site path to return to", async () => {
    const returnCookie = createCookie("crib-return", { secrets: [SESSION_SECRET] });
    for (const payload of [...OPEN_REDIRECTS, "/crib-search/search?q=pump"]) {
      const response = await fetch(sso(`/login?${new URLSearchParams({ returnTo: payload })}`), { redirect: "manual" });
      expect(response.status, payload).toBe(302);
      expect(new URL(response.headers.get("location")!).origin, payload).toBe(idp.issuer);
      const cookie = response.headers.getSetCookie().find((c) => c.startsWith("crib-return="));
      expect(cookie, payload).toBeDefined();
      const value: unknown = await returnCookie.parse(cookie!.split(";")[0]!);
      expect(typeof value, payload).toBe("string");
      expect((value as string).startsWith("/") && staysOnSite(value as string, portal.url), `${payload} → ${String(value)}`).toBe(true);
      if (payload.startsWith("/crib-search/search")) expect(value).toBe(payload);
      else expect(value, payload).toBe("/crib-search");
    }
  });

  it.each(NOT_FORMS)("POST /logout with %s answers 400 with a message, and nothing is logged as a failure", async (_what, headers, body) => {
    const before = portal.output().length;
    const response = await fetch(sso("/logout"), { method: "POST", headers, body, redirect: "manual" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("This form could not be read.");
    expect(portal.output().slice(before)).not.toMatch(/TypeError|\n\s+at /);
  });

  it.each(["/debug", "/okta-debug"])("%s shows the configuration without a secret", async (path) => {
    const response = await fetch(sso(path));
    expect(response.status).toBe(200);
    const html = await response.text();
    // It is the configuration page: the client and the issuer are named, the secrets redacted.
    expect(html).toContain("crib-search");
    expect(html).toContain(idp.issuer);
    expect(html).toContain("[redacted]");
    for (const secret of [CLIENT_SECRET, SESSION_SECRET, FUSION_API_KEY, FUSION_PASSWORD]) expect(html).not.toContain(secret);
    expect(html).toContain("http://[redacted]@127.0.0.1:");
  });
});

describe("a portal with debug pages off and a sign-in rate limit", () => {
  let portal: TestPortal;

  beforeAll(async () => {
    portal = await startPortal({ E2E_CATALOG_DB: cacheDb("limits.db"), E2E_SAMPLE_ITEMS: "50", DEBUG_PAGES: "false", SIGN_IN_RATE_LIMIT_PER_MINUTE: "2" });
  }, 150_000);

  afterAll(async () => {
    await portal?.stop();
  });

  it.each(["/debug", "/okta-debug"])("%s answers 404", async (path) => {
    expect((await fetch(`${portal.url}${path}`)).status).toBe(404);
  });

  it("/login answers 429 with Retry-After beyond the sign-ins a minute, counting only those that start one", async () => {
    // The sign-in page itself starts nothing, and another site's links are counted apart.
    for (let i = 0; i < 5; i++) expect((await fetch(`${portal.url}/login`, { redirect: "manual" })).status).toBe(302);
    for (let i = 0; i < 5; i++) expect((await fetch(`${portal.url}/login?start=1`, { redirect: "manual", headers: { "Sec-Fetch-Site": "cross-site" } })).status).toBe(302);
    const statuses: number[] = [];
    let refused: Response | null = null;
    for (let i = 0; i < 5; i++) {
      const response = await fetch(`${portal.url}/login?start=1`, { redirect: "manual" });
      statuses.push(response.status);
      if (response.status === 429) refused ??= response;
    }
    // Two a minute: two through, then refused until the minute is over.
    expect(statuses).toEqual([302, 302, 429, 429, 429]);
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(nosniff(refused!.headers.get("x-content-type-options")), "nosniff").toBe(true);
    cspNonce(refused!);
    expect(await refused!.text()).toContain("Too many sign-in attempts");
    // Other pages are not limited by the sign-in limit.
    expect((await fetch(`${portal.url}/crib-search`)).status).toBe(200);
  });
});
