/**
 * The error screens of the production build: an unexpected failure (a loader that throws, a page
 * that fails to render) on any page answers 500 with the spec's error screen and never a trace of
 * the failure; an unknown address answers 404 with a way home.
 *
 * Nothing in the portal fails on purpose, so the failures are made here: the production build is
 * served in this process with one route's module swapped for one that throws.
 */
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { cacheDb } from "./portal";
import { get } from "./server";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SECRET = "catalogue exploded at /srv/secret/catalog.db";
/** The home page and the results page: one route module (`/crib-search/search?`). */
const SEARCH_ROUTE = "routes/crib-search.(search)";
let build: ServerBuild;

beforeAll(async () => {
  // The build opens its catalogue when loaded: a small one of this test's own.
  process.env.CATALOG_DB = cacheDb("error-screens.db");
  process.env.SAMPLE_ITEMS = "50";
  build = (await import(pathToFileURL(path.join(ROOT, "build/index.js")).href)) as ServerBuild;
  // The failures are logged on purpose; keep them out of the test output.
  vi.spyOn(console, "error").mockImplementation(() => undefined);
}, 60_000);

afterAll(() => {
  vi.restoreAllMocks();
});

function failing(routeId: string, part: "loader" | "default"): (url: string, cookie?: string) => Promise<Response> {
  const route = build.routes[routeId];
  if (!route) throw new Error(`no route ${routeId}`);
  const fail = () => {
    throw new Error(SECRET);
  };
  const module = { ...route.module, [part]: fail };
  const handler = createRequestHandler({ ...build, routes: { ...build.routes, [routeId]: { ...route, module } } }, "production");
  return (url, cookie) => handler(new Request(`http://localhost${url}`, { headers: cookie ? { Cookie: cookie } : {} }));
}

async function expectErrorScreen(response: Response) {
  expect(response.status).toBe(500);
  const html = await response.text();
  expect(html).toContain("<h1 id=\"error-title\">Something went wrong</h1>");
  expect(html).toContain("We apologize for the inconvenience. An unexpected error has occurred.");
  expect(html).toMatch(/<a class="button" href="">Try Again<\/a>/);
  expect(html).toMatch(/<a class="button secondary" href="\/crib-search">Go Home<\/a>/);
  expect(html).not.toContain("exploded");
  expect(html).not.toContain("/srv/secret");
  expect(html).not.toMatch(/\n\s+at /);
  return html;
}

describe("the error screen", () => {
  it("a page whose loader throws answers 500 with the spec's screen and no trace of the failure", async () => {
    await expectErrorScreen(await failing(SEARCH_ROUTE, "loader")("/crib-search"));
    await expectErrorScreen(await failing(SEARCH_ROUTE, "loader")("/crib-search/search?q=pump"));
  });

  it("a page that fails to render answers 500 with the same screen", async () => {
    await expectErrorScreen(await failing(SEARCH_ROUTE, "default")("/crib-search"));
  });

  it("the item, BOM and Where Used pages, whose own boundary says what failed, show it for the unexpected too", async () => {
    await expectErrorScreen(await failing("routes/product.$id", "loader")("/product/ANY-1"));
    await expectErrorScreen(await failing("routes/where-used.$item", "loader")("/where-used/ANY-1"));
    await expectErrorScreen(await failing("routes/bom.$item", "loader")("/bom/ANY-1"));
  });

  it("keeps the theme and lite mode of the browser", async () => {
    const cookie = `lite=${encodeURIComponent(btoa("true"))}; theme-storage=${encodeURIComponent(btoa('"dark"'))}`;
    const html = await expectErrorScreen(await failing(SEARCH_ROUTE, "loader")("/crib-search", cookie));
    expect(html).toMatch(/<html lang="en" class="dark">/);
    expect(html).not.toMatch(/<script/);
  });
});

describe("the 404 page", () => {
  // The company site's pages are not the portal's (/support is: the default Contact Support, decision 029).
  it.each(["/no/such/page", "/warranty", "/products/washers", "/crib-search/nothing"])("%s answers 404 with the page and a link home", async (address) => {
    const response = await get(address);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("404 - Page not found");
    expect(html).toMatch(/<a class="button" href="\/crib-search"[^>]*>Go to Search<\/a>/);
    expect(html).not.toMatch(/\n\s+at /);
  });
});
