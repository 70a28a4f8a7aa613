/**
 * The shell over real HTTP: lite mode (no script of any kind, set by `?lite=1` or the footer's
 * form, kept in a cookie), the theme (the toggle's POST, the class and colour scheme the server
 * renders), the footer's links to the company site, and valid HTML: every page type in both
 * themes and in lite mode goes through the Nu HTML Checker in one run.
 *
 * A portal of its own has SITE_URL set (the suite's server has none); a second one with sign-in on
 * serves the sign-in page (which it renders without asking its identity provider, so none runs).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findBomHead } from "../catalogue-probes";
import { freePort } from "../processes";
import { searchUrl } from "../search-urls";
import { cacheDb, startPortal, type TestPortal } from "./portal";
import { url as suiteUrl } from "./server";

const SITE_URL = "https://www.example.com";
const cookieValue = (value: unknown) => encodeURIComponent(Buffer.from(JSON.stringify(value)).toString("base64"));
const LITE = `lite=${cookieValue(true)}`;
const themeCookie = (mode: string) => `theme-storage=${cookieValue(mode)}`;

let portal: TestPortal;
let sso: TestPortal;
let item: string;
let head: string;

/** A GET to the portal with the cookies given, not following redirects. */
function get(pathAndQuery: string, cookie?: string, base = portal.url): Promise<Response> {
  return fetch(`${base}${pathAndQuery}`, { redirect: "manual", headers: cookie ? { Cookie: cookie } : {} });
}

/** A page as a browser gets it: redirects (to a canonical search address) followed. */
function page(pathAndQuery: string, cookie: string | undefined, base: string): Promise<Response> {
  // The sign-in page is what another site's link to /login shows (opened directly, it signs in).
  const headers = new Headers(cookie ? { Cookie: cookie } : {});
  if (pathAndQuery === "/login") headers.set("Sec-Fetch-Site", "cross-site");
  return fetch(`${base}${pathAndQuery}`, { headers });
}

function post(pathname: string, form: Record<string, string>, cookie?: string): Promise<Response> {
  return fetch(`${portal.url}${pathname}`, {
    method: "POST",
    redirect: "manual",
    body: new URLSearchParams(form),
    headers: { Origin: portal.url, ...(cookie ? { Cookie: cookie } : {}) },
  });
}

/** The name=value part of a Set-Cookie header named `name`. */
function setCookie(response: Response, name: string): string | undefined {
  return response.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${name}=`))
    ?.split(";")[0];
}

beforeAll(async () => {
  const ssoPort = await freePort();
  [portal, sso] = await Promise.all([
    startPortal({ E2E_CATALOG_DB: cacheDb("shell.db"), E2E_SAMPLE_ITEMS: "300", SITE_URL }),
    // Nothing listens at the issuer: the sign-in page itself never asks it.
    startPortal({ E2E_CATALOG_DB: cacheDb("shell-sso.db"), E2E_SAMPLE_ITEMS: "50", E2E_OIDC_ISSUER: `http://127.0.0.1:${await freePort()}`, SITE_URL }, ssoPort),
  ]);
  // An item used in an asset's bill of materials, and that asset: its BOM page is a page and not an error.
  ({ component: item, head } = await findBomHead((p) => get(p), "asset", (lines) => lines.length > 0, "has lines"));
  expect(item, "an item on a BOM").toBeTruthy();
}, 150_000);

afterAll(async () => {
  await Promise.all([portal?.stop(), sso?.stop()]);
});

/** Every page type: [name, path and query, status, portal]. */
function pageTypes(): [string, string, number, string][] {
  const path = encodeURIComponent(item);
  return [
    ["home", "/crib-search", 200, portal.url],
    ["search with filters", searchUrl({ q: "pump", nf: "status:Inactive", sort: "item_number asc", within: "assembly" }), 200, portal.url],
    ["search its filters leave empty", searchUrl({ q: "pump", f: "category:No Such Category" }), 200, portal.url],
    ["export dialog", `${searchUrl({ q: "pump" })}&export=all`, 200, portal.url],
    ["item", `/product/${path}`, 200, portal.url],
    ["Where Used", `/where-used/${path}`, 200, portal.url],
    ["BOM lines", `/boms/${encodeURIComponent(head)}`, 200, portal.url],
    ["404", "/no/such/page", 404, portal.url],
    ["sign-in", "/login", 200, sso.url],
    ["support", "/support", 200, portal.url],
  ];
}

describe("lite mode", () => {
  it("?lite=1 sets the cookie for a year and answers with the same address without it", async () => {
    const response = await get(`${searchUrl({ q: "pump", rows: 50 })}&lite=1`);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(searchUrl({ q: "pump", rows: 50 }));
    const header = response.headers.getSetCookie().find((c) => c.startsWith("lite="));
    expect(header).toMatch(/Max-Age=31536000/);
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/Path=\//);
    expect(setCookie(response, "lite")).toBe(LITE);
  });

  it("?lite=0 removes the cookie, and the address is the page's own again", async () => {
    const response = await get("/product/NOTHING-0000?lite=0", LITE);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/product/NOTHING-0000");
    expect(response.headers.getSetCookie().find((c) => c.startsWith("lite="))).toMatch(/Max-Age=0/);
  });

  it("every page type is served without a script, a module preload or the router's data; without lite mode it has them", async () => {
    for (const [what, pathAndQuery, status, base] of pageTypes()) {
      const lite = await page(pathAndQuery, LITE, base);
      expect(lite.status, what).toBe(status);
      const html = await lite.text();
      expect(html, what).toContain("</footer>");
      expect(html.match(/<script/gi) ?? [], `${what}: scripts in lite mode`).toEqual([]);
      expect(html, what).not.toMatch(/modulepreload|__remixContext|\/build\/[^"]*\.js/);
      expect(html, what).toContain("Turn lite mode off");
    }
    const full = await (await get("/crib-search")).text();
    expect(full).toMatch(/<script/);
    expect(full).toContain("Turn lite mode on");
  });

  it("the submit buttons only a browser without scripts needs are plain in lite mode and in <noscript> otherwise", async () => {
    const path = searchUrl({ q: "pump", rows: 20 });
    const buttons = (html: string) => [...html.matchAll(/(<noscript>)?<button type="submit" class="small">(Sort|Apply|Find)<\/button>/g)];
    const lite = buttons(await (await page(path, LITE, portal.url)).text());
    const full = buttons(await (await page(path, undefined, portal.url)).text());
    // Sort, Apply, and Find for each facet with a value search.
    expect(lite.length).toBeGreaterThanOrEqual(3);
    expect(lite.map((m) => m[2])).toEqual(full.map((m) => m[2]));
    expect(lite.filter((m) => m[1])).toEqual([]);
    // With scripts, where they run nothing is drawn, so hydration moves nothing on the page.
    expect(full.filter((m) => !m[1])).toEqual([]);
  });

  it("the footer's switch turns lite mode on and off and goes back to the page", async () => {
    const on = await post("/lite", { lite: "1", back: "/crib-search/search?q=pump" });
    expect(on.status).toBe(303);
    expect(on.headers.get("location")).toBe("/crib-search/search?q=pump");
    expect(setCookie(on, "lite")).toBe(LITE);
    const off = await post("/lite", { lite: "0", back: "/crib-search" }, LITE);
    expect(off.status).toBe(303);
    expect(off.headers.getSetCookie().find((c) => c.startsWith("lite="))).toMatch(/Max-Age=0/);
  });
});

describe("theme", () => {
  it("the server renders the chosen theme on the root, with its colour scheme; auto leaves it to the system", async () => {
    const html = (mode?: string) => get("/crib-search", mode ? themeCookie(mode) : undefined).then((r) => r.text());
    const dark = await html("dark");
    expect(dark).toMatch(/<html lang="en" class="dark">/);
    expect(dark).toContain('<meta name="color-scheme" content="dark"/>');
    expect(dark).toMatch(/<button type="submit" name="mode" value="light"[^>]*>Light theme<\/button>/);
    const light = await html("light");
    expect(light).toMatch(/<html lang="en" class="light">/);
    expect(light).toMatch(/<button type="submit" name="mode" value="dark"[^>]*>Dark theme<\/button>/);
    for (const auto of [await html(), await html("purple")]) {
      expect(auto).toMatch(/<html lang="en">/);
      expect(auto).toContain('<meta name="color-scheme" content="light dark"/>');
    }
  });

  it("the toggle switches light to dark and any other mode to light, and comes back to the page", async () => {
    const toggled = async (cookie?: string) => {
      const response = await post("/theme", { back: "/crib-search/search?q=pump&page=2" }, cookie);
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe("/crib-search/search?q=pump&page=2");
      return setCookie(response, "theme-storage");
    };
    expect(await toggled(themeCookie("light"))).toBe(themeCookie("dark"));
    expect(await toggled(themeCookie("dark"))).toBe(themeCookie("light"));
    expect(await toggled(themeCookie("auto"))).toBe(themeCookie("light"));
    expect(await toggled()).toBe(themeCookie("light"));
  });

  it("the header's button says the mode it sets; the footer's goes back to auto", async () => {
    const dark = await post("/theme", { mode: "dark", back: "/crib-search" }, themeCookie("dark"));
    expect(setCookie(dark, "theme-storage")).toBe(themeCookie("dark"));
    const auto = await post("/theme", { mode: "auto", back: "/crib-search" }, themeCookie("dark"));
    expect(setCookie(auto, "theme-storage")).toBe(themeCookie("auto"));
  });

  it("goes back only to a path of the portal; a GET of the form's address leads home", async () => {
    for (const back of ["https://evil.example/", "//evil.example/", "/\\evil.example", "javascript:alert(1)"]) {
      const response = await post("/theme", { back });
      expect(response.headers.get("location"), back).toBe("/crib-search");
    }
    for (const form of ["/theme", "/lite"]) {
      const response = await get(form);
      expect(response.status, form).toBe(302);
      expect(response.headers.get("location"), form).toBe("/crib-search");
    }
  });
});

describe("footer", () => {
  it("links every spec page and three social links to the company site, none to the portal", async () => {
    const html = await (await get("/crib-search")).text();
    const footer = /<footer[\s\S]*<\/footer>/.exec(html)?.[0] ?? "";
    const hrefs = [...footer.matchAll(/<a [^>]*href="([^"]*)"/g)].map((m) => m[1]!);
    const pages = ["/support", "/warranty", "/contact", "/products/refrigerators", "/products/washers", "/products/ranges", "/products/dishwashers", "/privacy", "/terms", "/accessibility", "/cookies"];
    expect(hrefs.slice(0, pages.length)).toEqual(pages.map((p) => `${SITE_URL}${p}`));
    expect(hrefs.slice(pages.length)).toHaveLength(3);
    for (const href of hrefs) expect(href.startsWith(`${SITE_URL}/`), href).toBe(true);
    expect(footer).toContain(`<a href="${SITE_URL}/support">Contact Support</a>`);
    // The suite's own portal has no SITE_URL: Contact Support leads to the portal's own support
    // page, and no other link to a company site's page, which would be the portal's 404 page.
    const bare = await (await fetch(suiteUrl("/crib-search"))).text();
    const bareLinks = [.../<footer[\s\S]*<\/footer>/.exec(bare)![0].matchAll(/<a [^>]*href="([^"]*)"[^>]*>([^<]*)</g)].map((m) => `${m[2]} ${m[1]}`);
    expect(bareLinks).toEqual(["Contact Support /support"]);
    const support = await fetch(suiteUrl("/support"));
    expect(support.status).toBe(200);
    expect(await support.text()).toContain("<h1 id=\"support-title\">Contact Support</h1>");
  });

  it("the sign-in page's Contact Support leads to the company site", async () => {
    const html = await (await page("/login", undefined, sso.url)).text();
    expect(html).toContain(`<a href="${SITE_URL}/support">Contact Support</a>`);
  });
});

describe("embed", () => {
  it("/embed shows the address the portal was asked at as the widgets' endpoint, not APP_URL's default", async () => {
    const html = await (await get("/embed")).text();
    expect(html).toContain(`<dd>${portal.url}</dd>`);
    expect(html).not.toContain("localhost:3000");
  });
});

describe("valid HTML", () => {
  it("the Nu HTML Checker finds no error on any page type, in either theme or in lite mode", { timeout: 180_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crib-vnu-"));
    try {
      const files: string[] = [];
      const variants: [string, string | undefined][] = [
        ["light", themeCookie("light")],
        ["dark", themeCookie("dark")],
        ["lite", LITE],
      ];
      // The pick list is a document of its own (no header, footer or script), checked with the pages.
      const documents: [string, string, number, string][] = [...pageTypes(), ["pick list", "/crib-search/pick-list?q=pump&nf=status%3AInactive", 200, portal.url]];
      for (const [what, pathAndQuery, status, base] of documents) {
        for (const [variant, cookie] of variants) {
          const response = await page(pathAndQuery, cookie, base);
          expect(response.status, `${what} (${variant})`).toBe(status);
          const file = path.join(dir, `${what.replaceAll(" ", "-")}.${variant}.html`);
          fs.writeFileSync(file, await response.text());
          files.push(file);
        }
      }
      // One Java start for every page.
      const run = spawnSync("java", ["-jar", "node_modules/vnu-jar/build/dist/vnu.jar", "--errors-only", "--format", "json", ...files], { encoding: "utf8" });
      expect(run.error, "java runs").toBeUndefined();
      const report = JSON.parse(run.stderr || run.stdout) as { messages: { type: string; url?: string; message: string; extract?: string }[] };
      const errors = report.messages
        .filter((m) => m.type === "error" || m.type === "non-document-error")
        .map((m) => `${path.basename(m.url ?? "")}: ${m.message} ${m.extract ?? ""}`);
      expect(errors).toEqual([]);
      expect(run.status).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
