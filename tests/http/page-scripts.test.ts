/**
 * How a page with scripts names them (docs/decisions/048): no module preload and no module script
 * in the document, which the browser would fetch while it lays out the first frame, but one inline
 * loader, with the document's Content-Security-Policy nonce, naming the route manifest, Remix's
 * entry and the matched routes' modules, each of them served from the build.
 */
import { describe, expect, it } from "vitest";
import { namedModules, scriptsNamedBy } from "../support/page-scripts";
import { get } from "./server";

const ROOT_ROUTE = "root";
const SEARCH_ROUTE = "routes/crib-search.(search)";

describe("a page's scripts", () => {
  it("are named by one inline loader with the document's nonce, and none is fetched by the markup", async () => {
    const response = await get("/crib-search/search?q=pump");
    expect(response.status).toBe(200);
    const html = await response.text();
    const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
    expect(nonce).toBeTruthy();
    expect(html).not.toMatch(/rel="modulepreload"|type="module"/);
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((attributes) => !attributes.includes(`nonce="${nonce}"`) || /\bsrc=/.test(attributes))).toEqual([]);

    const modules = namedModules(html);
    expect(Object.keys(modules?.routes ?? {})).toEqual([ROOT_ROUTE, SEARCH_ROUTE]);
    expect(modules?.first.some((url) => /^\/build\/manifest-\w+\.js$/.test(url))).toBe(true);
    expect(modules?.entry).toMatch(/^\/build\/entry\.client-\w+\.js$/);
    // Every module the page imports is preloaded with it, so that nothing is fetched import by import.
    expect(scriptsNamedBy(html).filter((url) => !modules?.preloads.includes(url))).toEqual([]);
  });

  it("are each served from the build, as JavaScript", async () => {
    const scripts = scriptsNamedBy(await (await get("/crib-search/search?q=pump")).text());
    expect(scripts.length).toBeGreaterThan(4);
    for (const script of scripts) {
      const response = await get(script);
      expect(response.status, script).toBe(200);
      expect(response.headers.get("content-type"), script).toMatch(/javascript/);
    }
  });
});
