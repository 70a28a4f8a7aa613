/**
 * Signals of a search answered by Fusion: the search signal and the result click carry Fusion's
 * query id (the `x-fusion-query-id` header), which travels from the results page to the item page in
 * the row's link. Fusion is mocked with msw; the loaders are the app's own.
 */
import fs from "node:fs";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productLink } from "~/search/paths";
import type { ResultLinks } from "~/search/search-view";
import { signalSession } from "~/web/page-signals.server";
import { readSignals } from "../support/signals";
import { useTemporaryCatalog } from "./setup-catalog";

const { dir } = useTemporaryCatalog(50, { FUSION_URL: "http://fusion.test", FUSION_APP: "parts", SIGNALS_ENABLED: "true" });

/** Fusion gives every request an id of its own. */
let queries = 0;
const DOCS = [
  { id: "ITEM-1", item_number_s: "W100", item_description_t: "Drain Pump", category_s: "Pumps" },
  { id: "ITEM-2", item_number_s: "W200", item_description_t: "Condensate Pump", category_s: "Pumps" },
];

const fusion = setupServer(
  http.get("http://fusion.test/api/apps/parts/query/:profile", ({ request }) => {
    const params = new URL(request.url).searchParams;
    const start = Number(params.get("start") ?? 0);
    const rows = Number(params.get("rows") ?? 20);
    // A product lookup asks for one item by its number or id; a search for a page of both.
    const q = params.get("q") ?? "";
    const found = rows === 1 && !q.includes("pump") ? DOCS.filter((d) => q.includes(d.item_number_s) || q.includes(d.id)) : DOCS;
    return HttpResponse.json(
      { responseHeader: { status: 0 }, response: { numFound: found.length, start, docs: found.slice(start, start + rows) } },
      { headers: { "x-fusion-query-id": `Q-7f3a_${++queries}` } },
    );
  }),
);

type Loader = (args: LoaderFunctionArgs) => unknown;
let searchLoader: Loader;
let productLoader: Loader;

beforeAll(async () => {
  fusion.listen({ onUnhandledRequest: "bypass" });
  searchLoader = (await import("~/routes/crib-search.(search)")).loader;
  productLoader = (await import("~/routes/product.$id")).loader;
});

afterAll(async () => {
  fusion.close();
  await readSignals();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function searchPage(path: string) {
  const response = (await searchLoader({ request: new Request(`http://localhost${path}`), params: {}, context: {} })) as Response;
  expect(response.status).toBe(200);
  const data = (await response.json()) as { degraded: boolean; view: { rows: { itemNumber: string }[]; rowLinks: ResultLinks } };
  // The links as the results table builds them.
  const { back, offset, queryId } = data.view.rowLinks;
  const rows = data.view.rows.map((row, i) => ({ ...row, href: productLink(row.itemNumber, back, offset + i, { queryId: queryId ?? undefined }) }));
  return { ...data, view: { ...data.view, rows } };
}

/** A browser's signals session cookie, as the server would set it on its first page. */
const browser = () => signalSession(undefined, "203.0.113.1").setCookie!.split(";")[0]!;

/** The load context the HTTP server gives a request with this Cookie header from this address (scripts/server.mjs). */
const contextOf = (cookie: string, client = "203.0.113.1") => ({ signals: signalSession(cookie, client).session });

const lastOf = async (type: string) => (await readSignals()).filter((s) => s.type === type).at(-1);

describe("signals of a search through Fusion", () => {
  it("the search signal names Fusion's query id, and each result link carries the same", async () => {
    const page = await searchPage("/crib-search/search?q=pump");
    expect(page.degraded).toBe(false);
    expect(page.view.rows.map((r) => r.itemNumber)).toEqual(["W100", "W200"]);
    const search = await lastOf("search");
    expect(search?.data).toMatchObject({ query: "pump", numResults: 2, engine: "fusion", page: 1, filters: [], collection: "parts" });
    expect(search?.data.fusionQueryId).toMatch(/^Q-7f3a_\d+$/);
    for (const row of page.view.rows) {
      const params = new URL(row.href, "http://localhost").searchParams;
      expect(params.get("qid")).toBe(search?.data.fusionQueryId);
      expect(params.get("via")).toBe("result");
    }
  });

  it("opening a result records the click with its position, the query and that query id, once", async () => {
    const page = await searchPage("/crib-search/search?q=pump");
    const qid = (await lastOf("search"))?.data.fusionQueryId;
    const row = page.view.rows[1]!;
    const url = new URL(row.href, "http://localhost");
    const product = (await productLoader({ request: new Request(url), params: { id: row.itemNumber }, context: contextOf(browser()) })) as { whereUsedHref: string; neighbours: { prev: { href: string } | null } };
    const click = await lastOf("click");
    expect(click?.data).toMatchObject({ docId: "ITEM-2", position: 1, query: "pump", fusionQueryId: qid });
    // The page's own address, and with it the way back from Where Used, is without the marks.
    const self = new URL(String(click?.data.url), "http://localhost");
    expect([...self.searchParams.keys()].sort()).toEqual(["back", "pos"]);
    for (const href of [product.whereUsedHref, product.neighbours.prev!.href]) {
      const back = new URL(href, "http://localhost").searchParams;
      expect(back.has("via") && back.get("via") === "result").toBe(false);
      expect(back.has("qid")).toBe(false);
      expect(new URL(back.get("back") ?? "/", "http://localhost").searchParams.has("via")).toBe(false);
    }
  });

  it("the same item again from the same browser within the window is the click already recorded; another browser counts", async () => {
    const page = await searchPage("/crib-search/search?q=pump");
    const open = (row: { href: string; itemNumber: string }, cookie: string, client?: string) =>
      productLoader({ request: new Request(new URL(row.href, "http://localhost")), params: { id: row.itemNumber }, context: contextOf(cookie, client) });
    const clicks = async () => (await readSignals()).filter((s) => s.type === "click");
    const [first, second] = page.view.rows as [(typeof page.view.rows)[number], (typeof page.view.rows)[number]];
    const one = browser();

    const before = (await clicks()).length;
    await open(first, one);
    expect(await clicks()).toHaveLength(before + 1);
    // Reloaded, or opened again from another search: the click already counted.
    await open(first, one);
    const again = await searchPage("/crib-search/search?q=pump");
    await open(again.view.rows[0]!, one);
    expect(await clicks()).toHaveLength(before + 1);

    // Another result, and the same result in another browser, count.
    await open(second, one);
    expect((await clicks()).at(-1)?.data).toMatchObject({ docId: "ITEM-2", position: 1 });
    await open(first, browser());
    expect(await clicks()).toHaveLength(before + 3);
    expect((await clicks()).at(-1)?.sessionId).toMatch(/^[\w-]{22}$/);

    // A client that keeps no cookies, replaying the link from one address: one click. A made-up cookie is none.
    for (const cookie of ["", "crib-sid=AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA", "crib-sid=x"]) await open(first, cookie, "198.51.100.7");
    expect(await clicks()).toHaveLength(before + 4);
  });

  it("a made-up position records no click; a query id that is not one is left out; the query is the search's", async () => {
    const link = (pos: string, qid: string) =>
      `http://localhost/product/W100?${new URLSearchParams({ back: "/crib-search/search?q=%20%20pump%20", pos, via: "result", qid })}`;
    const clicks = async () => (await readSignals()).filter((s) => s.type === "click").length;

    const before = await clicks();
    await productLoader({ request: new Request(link("7", "Q-1")), params: { id: "W100" }, context: contextOf(browser()) });
    expect(await clicks()).toBe(before);

    await productLoader({ request: new Request(link("0", '"><script>')), params: { id: "W100" }, context: contextOf(browser()) });
    const click = await lastOf("click");
    expect(click?.data).toMatchObject({ docId: "ITEM-1", position: 0, query: "pump" });
    expect(click?.data).not.toHaveProperty("fusionQueryId");
  });

  it("an item page opened directly, or by Previous and Next, is a view, not a result click", async () => {
    const before = (await readSignals()).filter((s) => s.type === "click").length;
    const context = contextOf(browser());
    await productLoader({ request: new Request("http://localhost/product/W100"), params: { id: "W100" }, context });
    const next = `http://localhost/product/W200?${new URLSearchParams({ back: "/crib-search/search?q=pump", pos: "1" })}`;
    await productLoader({ request: new Request(next), params: { id: "W200" }, context });
    const signals = await readSignals();
    expect(signals.filter((s) => s.type === "click")).toHaveLength(before);
    expect(signals.at(-1)).toMatchObject({ type: "view", data: { docId: "ITEM-2" } });
  });

  it("the home page's list and a dialog over the same results are not searches", async () => {
    const before = (await readSignals()).filter((s) => s.type === "search").length;
    await searchPage("/crib-search/search?q=pump&facet-category=pu");
    await searchPage("/crib-search/search?q=pump&export=all");
    const home = (await import("~/routes/crib-search.(search)")).loader;
    await home({ request: new Request("http://localhost/crib-search"), params: {}, context: {} });
    expect((await readSignals()).filter((s) => s.type === "search")).toHaveLength(before);
  });
});
