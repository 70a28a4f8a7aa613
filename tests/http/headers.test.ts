/**
 * What the portal's responses carry over real HTTP: the security headers of every HTML page, the
 * Server-Timing of searches. (The signals session cookie: signals.test.ts.)
 */
import { beforeAll, describe, expect, it } from "vitest";
import { searchUrl } from "../search-urls";
import { get } from "./server";

const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "x-frame-options": "SAMEORIGIN",
  "cross-origin-opener-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=()",
};

/** Server-Timing metrics by name, each with its duration. */
function serverTiming(response: Response): Record<string, number> {
  const header = response.headers.get("server-timing") ?? "";
  const metrics: Record<string, number> = {};
  for (const part of header.split(",").map((p) => p.trim()).filter(Boolean)) {
    const [name, ...params] = part.split(";").map((p) => p.trim());
    const dur = params.find((p) => p.startsWith("dur="));
    metrics[name!] = Number(dur?.slice("dur=".length));
  }
  return metrics;
}

let item: string;

beforeAll(async () => {
  const body = await (await get("/api/search?q=pump&rows=1")).json();
  item = body.data.docs[0].item_number_s;
  expect(item).toBeTruthy();
});

describe("security headers", () => {
  const pages: [string, () => string, number][] = [
    ["the home page", () => "/crib-search", 200],
    ["a search page", () => searchUrl({ q: "pump" }), 200],
    ["an item page", () => `/product/${encodeURIComponent(item)}`, 200],
    ["a Where Used page", () => `/where-used/${encodeURIComponent(item)}`, 200],
    ["a pick list", () => "/crib-search/pick-list?q=pump", 200],
    ["a missing item's page", () => "/product/NO-SUCH-ITEM-0000", 404],
    ["an unknown page", () => "/no/such/page", 404],
  ];
  it.each(pages)("%s carries every security header", async (_what, path, status) => {
    const response = await get(path());
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(response.headers.get(name), name).toBe(value);
  });
});

describe("pick list", () => {
  it("is a document without scripts, not cached, every row of the search up to 500 with the range said", async () => {
    const all = (await (await get("/api/search?q=&rows=0")).json()).data.numFound as number;
    const response = await get("/crib-search/pick-list");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const html = await response.text();
    expect(html).not.toMatch(/<script/i);
    expect(html.match(/<td class="c-picked"><input type="checkbox"/g)).toHaveLength(Math.min(500, all));
    expect(html).toContain(all > 500 ? `first 500 of ${all.toLocaleString("en-US")}` : `1–${all} of ${all}`);
  });

  it("prints a filtered search whole, with its filters in the header", async () => {
    const pumps = (await (await get("/api/search?q=pump&rows=0")).json()).data.numFound as number;
    const html = await (await get("/crib-search/pick-list?q=pump&nf=status%3AInactive")).text();
    expect(html).toContain("Pick list: ");
    expect(html).toContain("Status is not Inactive");
    expect(html).toMatch(/<span class="pick-list-range">1–\d+ of \d+<\/span>/);
    expect(pumps).toBeGreaterThan(0);
  });
});

describe("Server-Timing", () => {
  it("a search page reports the engine's, the app's and the render's time", async () => {
    const response = await get(searchUrl({ q: "pump" }));
    expect(response.status).toBe(200);
    const metrics = serverTiming(response);
    expect(Object.keys(metrics).sort()).toEqual(["app", "engine", "render"]);
    for (const [name, dur] of Object.entries(metrics)) expect(dur, name).toBeGreaterThanOrEqual(0);
  });

  it("the search API reports the engine's time", async () => {
    const response = await get("/api/search?q=pump&rows=1");
    expect(response.status).toBe(200);
    const metrics = serverTiming(response);
    expect(Object.keys(metrics)).toEqual(["engine"]);
    expect(metrics.engine).toBeGreaterThanOrEqual(0);
  });
});
