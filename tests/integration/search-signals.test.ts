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
import type { readSignals as ReadSignals } from "~/signals/signals.server";
import { useTemporaryCatalog } from "./setup-catalog";

const { dir } = useTemporaryCatalog(50);
process.env.FUSION_URL = "http://fusion.test";
process.env.FUSION_APP = "parts";
process.env.SIGNALS_ENABLED = "true";

const QUERY_ID = "Q-7f3a_19";
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
      { headers: { "x-fusion-query-id": QUERY_ID } },
    );
  }),
);

type Loader = (args: LoaderFunctionArgs) => unknown;
let searchLoader: Loader;
let productLoader: Loader;
let readSignals: typeof ReadSignals;

beforeAll(async () => {
  fusion.listen({ onUnhandledRequest: "bypass" });
  searchLoader = (await import("~/routes/crib-search.search")).loader;
  productLoader = (await import("~/routes/product.$id")).loader;
  ({ readSignals } = await import("~/signals/signals.server"));
});

afterAll(async () => {
  fusion.close();
  await readSignals();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function searchPage(path: string) {
  const response = (await searchLoader({ request: new Request(`http://localhost${path}`), params: {}, context: {} })) as Response;
  expect(response.status).toBe(200);
  return (await response.json()) as { degraded: boolean; view: { rows: { itemNumber: string; href: string }[] } };
}

describe("signals of a search through Fusion", () => {
  it("the search signal names Fusion's query id, and each result link carries it", async () => {
    const page = await searchPage("/crib-search/search?q=pump");
    expect(page.degraded).toBe(false);
    expect(page.view.rows.map((r) => r.itemNumber)).toEqual(["W100", "W200"]);
    for (const row of page.view.rows) expect(new URL(row.href, "http://localhost").searchParams.get("qid")).toBe(QUERY_ID);

    const search = (await readSignals()).filter((s) => s.type === "search");
    expect(search.at(-1)?.data).toMatchObject({ query: "pump", numResults: 2, engine: "fusion", fusionQueryId: QUERY_ID, page: 1, filters: [] });
  });

  it("opening a result records the click with its position, the query and Fusion's query id", async () => {
    const page = await searchPage("/crib-search/search?q=pump");
    const row = page.view.rows[1]!;
    const url = new URL(row.href, "http://localhost");
    const product = (await productLoader({ request: new Request(url), params: { id: row.itemNumber }, context: {} })) as {
      neighbours: { prev: { href: string } | null };
    };
    expect(new URL(product.neighbours.prev!.href, "http://localhost").searchParams.get("qid")).toBe(QUERY_ID);

    const clicks = (await readSignals()).filter((s) => s.type === "click");
    expect(clicks.at(-1)?.data).toMatchObject({ docId: "ITEM-2", position: 1, query: "pump", fusionQueryId: QUERY_ID });
    expect(clicks.at(-1)?.data.url).toBe(`${url.pathname}${url.search}`);
  });

  it("a query id that is not one is neither recorded nor passed on", async () => {
    const forged = `/product/W100?${new URLSearchParams({ back: "/crib-search/search?q=pump", pos: "0", qid: '"><script>' })}`;
    await productLoader({ request: new Request(`http://localhost${forged}`), params: { id: "W100" }, context: {} });
    const click = (await readSignals()).filter((s) => s.type === "click").at(-1);
    expect(click?.data).toMatchObject({ docId: "ITEM-1", position: 0, query: "pump" });
    expect(click?.data).not.toHaveProperty("fusionQueryId");
  });

  it("an item page opened directly is a view, not a result click", async () => {
    const before = (await readSignals()).filter((s) => s.type === "click").length;
    await productLoader({ request: new Request("http://localhost/product/W100"), params: { id: "W100" }, context: {} });
    const signals = await readSignals();
    expect(signals.filter((s) => s.type === "click")).toHaveLength(before);
    expect(signals.at(-1)).toMatchObject({ type: "view", data: { docId: "ITEM-1" } });
  });
});
