import fs from "node:fs";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BomDoc, BomType } from "~/search/engine";
import { generateBoms } from "~/search/engines/embedded/sample-data";
import { readSignals } from "../support/signals";
import { useTemporaryCatalog } from "./setup-catalog";

const ITEMS = 2000;
const { dir } = useTemporaryCatalog(ITEMS);

/** The sample catalogue's BOMs (the catalogue is built from the same generator): head number → lines. */
const boms = new Map<string, BomDoc[]>();
/** And the other way round: component → its records (its uses). */
const uses = new Map<string, BomDoc[]>();
for (const line of generateBoms(ITEMS)) {
  boms.set(line.asset_number!, [...(boms.get(line.asset_number!) ?? []), line]);
  uses.set(line.item_number, [...(uses.get(line.item_number) ?? []), line]);
}
/** The first BOM head whose lines are all of `type`. */
const headOf = (type: BomType) => [...boms].find(([, lines]) => lines.every((l) => l.type === type))![0];
const countOf = (records: BomDoc[], type: BomType) => records.filter((r) => r.type === type).length;
/** The first component whose records' counts by type satisfy `wanted`, the busiest first. */
const componentWith = (wanted: (c: Record<BomType, number>) => boolean) =>
  [...uses]
    .sort((a, b) => b[1].length - a[1].length)
    .find(([, records]) => wanted({ asset: countOf(records, "asset"), pm: countOf(records, "pm"), other: countOf(records, "other") }))![0];

type Loader = (args: LoaderFunctionArgs) => unknown;
const loaders: Record<string, Loader> = {};

beforeAll(async () => {
  loaders.product = (await import("~/routes/product.$id")).loader;
  loaders.whereUsed = (await import("~/routes/where-used.$item")).loader;
  loaders.bom = (await import("~/routes/bom.$item")).loader;
  loaders.assetBom = (await import("~/routes/asset-bom.$item")).loader;
  loaders.pmBom = (await import("~/routes/pm-bom.$item")).loader;
  loaders.external = (await import("~/routes/product.$id_.external")).loader;
  loaders.api = (await import("~/routes/api.search")).loader;
  loaders.productCsv = (await import("~/routes/product.$id_.export[.]csv")).loader;
  loaders.bomCsv = (await import("~/routes/bom.$item_.export[.]csv")).loader;
  loaders.lines = (await import("~/routes/boms.$head")).loader;
  loaders.linesCsv = (await import("~/routes/boms.$head_.export[.]csv")).loader;
  loaders.search = (await import("~/routes/crib-search.(search)")).loader;
  loaders.whereUsedCsv = (await import("~/routes/where-used.$item_.export[.]csv")).loader;
});

afterAll(async () => {
  await readSignals();
  fs.rmSync(dir, { recursive: true, force: true });
});

function call(name: string, path: string, params: Record<string, string>) {
  return loaders[name]!({ request: new Request(`http://localhost${path}`), params, context: {} }) as Promise<any>;
}

/** A loader's thrown answer: a redirect Response, or `data(body, {status})`. */
async function thrown(promise: Promise<unknown>): Promise<{ status: number; body: any; location?: string }> {
  try {
    await promise;
  } catch (error: any) {
    if (!(error instanceof Response)) throw error;
    const json = (error.headers.get("Content-Type") ?? "").startsWith("application/json");
    return { status: error.status, body: json ? await error.json() : null, location: error.headers.get("Location") ?? undefined };
  }
  throw new Error("expected the loader to throw");
}

async function docs(query: string) {
  const response = (await loaders.api!({ request: new Request(`http://localhost/api/search${query}`), params: {}, context: {} })) as Response;
  return (await response.json()).data.docs as Record<string, any>[];
}

/** Components with their BOM types, found through the Where Used loader. */
async function componentsByTypes() {
  const found: { item: string; asset: number; pm: number }[] = [];
  for (const doc of await docs("?rows=100&sort=item_number_s%20asc")) {
    const item = doc.item_number_s as string;
    const page = await call("whereUsed", `/where-used/${encodeURIComponent(item)}`, { item });
    found.push({ item, asset: page.sections[0].total, pm: page.sections[1].total });
  }
  return found;
}

describe("item detail loader", () => {
  it("loads an item by item number with its specification, links and search context", async () => {
    const [first, second, third] = await docs("?q=&rows=3");
    const back = "/crib-search/search";
    const page = await call("product", `/product/${second!.item_number_s}?back=${encodeURIComponent(back)}&pos=1`, { id: second!.item_number_s });
    expect(page.itemNumber).toBe(second!.item_number_s);
    expect(page.back).toBe(back);
    expect(page.specification.find((row: any) => row.label === "Item Number").value).toBe(second!.item_number_s);
    expect(page.neighbours.prev.itemNumber).toBe(first!.item_number_s);
    expect(page.neighbours.next.itemNumber).toBe(third!.item_number_s);
    expect(page.neighbours.next.href).toContain("pos=2");
    expect(page.whereUsedHref).toMatch(/^\/where-used\/[^?]+\?back=%2Fproduct%2F/);
  });

  it("finds an item by id too", async () => {
    const [doc] = await docs("?rows=1");
    const page = await call("product", `/product/${doc!.id}`, { id: doc!.id });
    expect(page.itemNumber).toBe(doc!.item_number_s);
    expect(page.neighbours).toEqual({ prev: null, next: null, position: null, total: null });
  });

  it("answers the spec's errors with their status", async () => {
    expect(await thrown(call("product", "/product/", { id: " " }))).toMatchObject({ status: 400, body: { message: "Product ID not provided" } });
    expect(await thrown(call("product", "/product/NOPE", { id: "NOPE" }))).toMatchObject({ status: 404, body: { message: "Product not found", notFound: true } });
  });

  it("keeps Back on this site whatever the back parameter says", async () => {
    const [doc] = await docs("?rows=1");
    for (const back of ["https://evil.example/x", "//evil.example", "/\\evil.example", "javascript:alert(1)", " /ok"]) {
      const page = await call("product", `/product/${doc!.id}?back=${encodeURIComponent(back)}`, { id: doc!.id });
      expect(page.back.startsWith("/")).toBe(true);
      expect(page.back.startsWith("//")).toBe(false);
      expect(page.back).not.toContain("evil.example");
    }
  });

  it("answers hostile item numbers with 400 or 404, never a failure", async () => {
    for (const id of ["../../etc/passwd", "<script>alert(1)</script>", "x".repeat(5000), "a\u0000b", "{!join from=a to=b}x"]) {
      const answer = await thrown(call("product", `/product/${encodeURIComponent(id)}`, { id }));
      expect([400, 404]).toContain(answer.status);
    }
  });

  it("redirects View Details only to the item's own http(s) URL", async () => {
    const withUrl = (await docs("?rows=100")).find((d) => typeof d.url_s === "string");
    expect(withUrl).toBeDefined();
    const answer = (await call("external", `/product/${withUrl!.id}/external`, { id: withUrl!.id })) as Response;
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe(new URL(withUrl!.url_s).toString());
    const missing = await thrown(call("external", "/product/NOPE/external", { id: "NOPE" }));
    expect(missing.status).toBe(404);
  });
});

describe("Where Used loader", () => {
  it("pages each section by 5 on its own and sorts by asset number by default, naming the item in no column", async () => {
    const busy = (await componentsByTypes()).sort((a, b) => b.asset - a.asset)[0]!;
    expect(busy.asset).toBeGreaterThan(5);
    const page = await call("whereUsed", `/where-used/${encodeURIComponent(busy.item)}?asset-page=2`, { item: busy.item });
    const [asset, pm] = page.sections;
    expect(asset.title).toBe("Asset BOM");
    expect(asset.rows).toHaveLength(Math.min(5, busy.asset - 5));
    expect(asset.range).toBe(`6-${5 + asset.rows.length} of ${busy.asset}`);
    expect(asset.columns.find((c: any) => c.field === "asset_number").sorted).toBe("asc");
    expect(asset.columns.map((c: any) => c.field)).not.toContain("item_number");
    const heads = asset.rows.map((row: any) => String(row.asset_number ?? row.cells?.asset_number ?? ""));
    expect(heads).toEqual([...heads].sort((a, b) => a.localeCompare(b)));
    expect(pm.pager.page).toBe(1);
    expect(asset.pager.links.find((l: any) => l.page === 3)?.href).toContain("asset-page=3");
    expect(page.crumbs.map((c: any) => c.label)).toEqual(["Home", `Where Used: ${busy.item}`]);
    // The way to the item's BOM page, which also shows its uses in tools' BOMs.
    const tools = countOf(uses.get(busy.item)!, "other");
    expect(page.bom).toEqual({
      href: `/bom/${encodeURIComponent(busy.item)}?back=${encodeURIComponent(`/where-used/${encodeURIComponent(busy.item)}?asset-page=2`)}`,
      records: uses.get(busy.item)!.length,
      inTools: tools,
    });
  });

  it("builds breadcrumbs from a search and from an item page", async () => {
    const [doc] = await docs("?q=pump&rows=1");
    const item = doc!.item_number_s;
    const search = "/crib-search/search?q=pump";
    const fromSearch = await call("whereUsed", `/where-used/${item}?back=${encodeURIComponent(search)}`, { item });
    expect(fromSearch.crumbs.map((c: any) => c.label)).toEqual(["Home", 'Search Results: "pump"', `Where Used: ${item}`]);
    const product = `/product/${item}?back=${encodeURIComponent(search)}`;
    const fromProduct = await call("whereUsed", `/where-used/${item}?back=${encodeURIComponent(product)}`, { item });
    expect(fromProduct.crumbs.map((c: any) => c.label)).toEqual(["Home", 'Search Results: "pump"', `Product ${item}`, `Where Used: ${item}`]);
    expect(fromProduct.crumbs[2].href).toBe(product);
  });

  it("answers a missing or hostile item number without failing", async () => {
    expect(await thrown(call("whereUsed", "/where-used/", { item: "" }))).toMatchObject({ status: 400, body: { message: "Item number not provided" } });
    expect((await thrown(call("whereUsed", "/where-used/x", { item: "x".repeat(5000) }))).status).toBe(400);
    // An item in neither the catalogue nor any BOM does not exist: 404, said in words.
    expect(await thrown(call("whereUsed", "/where-used/%3Cscript%3E", { item: "<script>" }))).toMatchObject({
      status: 404,
      body: { message: "Item <script> does not exist", notFound: true },
    });
  });

  it("names the item's description and keeps the page it was opened from as its way back", async () => {
    const [component] = await componentsByTypes();
    const search = "/crib-search/search?q=pump";
    const back = `/product/${encodeURIComponent(component!.item)}?back=${encodeURIComponent(search)}`;
    const page = await call("whereUsed", `/where-used/${encodeURIComponent(component!.item)}?back=${encodeURIComponent(back)}`, { item: component!.item });
    expect(typeof page.description).toBe("string");
    expect(page.description.length).toBeGreaterThan(0);
    expect(page.back).toBe(back);
  });
});

describe("BOM loaders", () => {
  it("shows an item's BOM records in the spec's three sections, each asset number leading to its BOM's lines", async () => {
    const item = componentWith((c) => c.asset > 0 && (c.pm > 0 || c.other > 0));
    const records = uses.get(item)!;
    const search = "/crib-search/search?q=pump";
    const page = await call("bom", `/bom/${encodeURIComponent(item)}?back=${encodeURIComponent(search)}`, { item });
    expect(page.item).toBe(item);
    expect(page.exportHref).toBe(`/bom/${encodeURIComponent(item)}/export.csv?type=all`);
    const expected = [
      ["Asset BOM", countOf(records, "asset")],
      ["PM BOM", countOf(records, "pm")],
      ["Other BOM Items", countOf(records, "other")],
    ] as const;
    expect(page.sections.map((s: any) => [s.title, s.total])).toEqual(expected);
    for (const section of page.sections) {
      if (section.total === 0) continue;
      expect(section.range).toBe(`1-${Math.min(20, section.total)} of ${section.total}`);
      expect(section.columns.map((c: any) => c.label)).toEqual(["Org Code", "Item Number", "Asset Number", "Asset Serial Number", "Asset Group", "Asset Description"]);
      expect(new Set(section.rows.map((r: any) => r.item_number))).toEqual(new Set([item]));
      const heads = new Set(records.filter((r) => r.type === section.type).map((r) => r.asset_number));
      for (const row of section.rows) {
        expect(heads.has(row.asset_number)).toBe(true);
        const link = new URL(row.hrefs.asset_number, "http://x");
        expect(link.pathname).toBe(`/boms/${encodeURIComponent(row.asset_number)}`);
        expect(link.searchParams.get("back")).toBe(`/bom/${encodeURIComponent(item)}?back=${encodeURIComponent(search)}`);
      }
    }
  });

  it("shows an item's uses in tools' BOMs under Other BOM Items", async () => {
    const item = componentWith((c) => c.other > 0);
    const tools = uses.get(item)!.filter((r) => r.type === "other");
    // Uses in tools' BOMs keep the combined page (the spec redirects for asset or PM records only).
    const page = await call("bom", `/bom/${encodeURIComponent(item)}`, { item });
    const other = page.sections.find((s: any) => s.title === "Other BOM Items");
    expect(other.total).toBe(tools.length);
    expect(other.rows.map((r: any) => r.asset_number).sort()).toEqual(tools.slice(0, 20).map((t) => t.asset_number).sort());
  });

  it("redirects to the single-type page when every record has one type, keeping the way back", async () => {
    for (const type of ["asset", "pm"] as const) {
      const item = componentWith((c) => c[type] > 0 && c.asset + c.pm + c.other === c[type]);
      const answer = await thrown(call("bom", `/bom/${encodeURIComponent(item)}?back=%2Fcrib-search%2Fsearch%3Fq%3Dx`, { item }));
      expect(answer.status).toBe(302);
      expect(answer.location).toBe(`/${type}-bom/${encodeURIComponent(item)}?back=%2Fcrib-search%2Fsearch%3Fq%3Dx`);
      const single = await call(type === "asset" ? "assetBom" : "pmBom", `/${type}-bom/${encodeURIComponent(item)}`, { item });
      expect(single.sections.map((s: any) => [s.title, s.total])).toEqual([[type === "asset" ? "Asset BOM" : "PM BOM", uses.get(item)!.length]]);
      expect(single.exportHref).toBe(`/bom/${encodeURIComponent(item)}/export.csv?type=${type}`);
    }
  });

  it("answers the spec's texts for an item in no BOM, and sends a head's old BOM address to its lines", async () => {
    const search = "/crib-search/search?q=pump";
    const pages = [
      ["bom", "No BOM data found for this item"],
      ["assetBom", "No Asset BOM data found for this item"],
      ["pmBom", "No PM BOM data found for this item"],
    ] as const;
    for (const [loader, message] of pages) {
      expect(await thrown(call(loader, `/x/NOPE-1?back=${encodeURIComponent(search)}`, { item: "NOPE-1" }))).toEqual({ status: 404, body: { message, back: search } });
    }
    // Decision 033's /bom/{head} bookmarks: the head's lines, with the way back kept.
    const head = headOf("asset");
    for (const loader of ["bom", "assetBom", "pmBom"]) {
      const answer = await thrown(call(loader, `/x/${head}?back=${encodeURIComponent(search)}`, { item: head }));
      expect(answer).toMatchObject({ status: 302, location: `/boms/${head}?back=${encodeURIComponent(search)}` });
    }
    expect(await thrown(call("bom", "/bom/", { item: "" }))).toMatchObject({ status: 400, body: { message: "Item number not provided" } });
  });

  it("leads from a Where Used record to its BOM's lines and back", async () => {
    const busy = (await componentsByTypes()).sort((a, b) => b.asset - a.asset)[0]!;
    const search = "/crib-search/search?q=pump";
    const product = `/product/${encodeURIComponent(busy.item)}?back=${encodeURIComponent(search)}`;
    const whereUsed = `/where-used/${encodeURIComponent(busy.item)}?back=${encodeURIComponent(product)}`;
    const used = await call("whereUsed", whereUsed, { item: busy.item });
    const row = used.sections[0].rows[0];
    // The item is the same in every record: only the asset number leads on.
    expect(Object.keys(row.hrefs)).toEqual(["asset_number"]);
    const link = new URL(row.hrefs.asset_number, "http://x");
    expect(link.pathname).toBe(`/boms/${row.asset_number}`);
    expect(link.searchParams.get("back")).toBe(whereUsed);
    const lines = await call("lines", `/boms/${row.asset_number}${link.search}`, { head: row.asset_number });
    expect(lines.table.rows.map((r: any) => r.item_number)).toContain(busy.item);
    expect(lines.back).toBe(search);
    expect(lines.pageBack).toEqual({ href: whereUsed, label: "← Back to Where Used" });
  });
});

describe("a BOM's lines", () => {
  it("lists every line of the head with its part's description, quantity, unit, stock and locator", async () => {
    for (const type of ["asset", "pm", "other"] as const) {
      const head = headOf(type);
      const lines = boms.get(head)!;
      const page = await call("lines", `/boms/${head}`, { head });
      expect(page.head).toMatchObject({ number: head, type, description: lines[0]!.asset_description });
      expect(page.table.range).toBe(`1-${lines.length} of ${lines.length}`);
      expect(page.table.columns.map((c: any) => c.label)).toEqual(["Item Number", "Description", "Quantity", "Unit", "In Stock", "Stock Locator"]);
      expect(page.table.rows.map((r: any) => [r.item_number, r.quantity])).toEqual(lines.map((l) => [l.item_number, l.quantity]));
      for (const row of page.table.rows) {
        const [item] = await docs(`?q=${encodeURIComponent(row.item_number)}&rows=5`).then((found) => found.filter((d) => d.item_number_s === row.item_number));
        expect(item, row.item_number).toBeDefined();
        expect(row.description).toBe(item!.item_description_t ?? null);
        expect(row.unit).toBe(item!.attribute_issue_uom_s ?? null);
        expect(row.stock).toBe(item!.attribute_quantity_on_hand_i ?? null);
        expect(row.locator).toBe(item!.attribute_stock_locator_s ?? null);
        expect(row.itemHref).toBe(`/product/${encodeURIComponent(row.item_number)}?back=${encodeURIComponent(`/boms/${head}`)}`);
      }
    }
  });

  it("sorts by a column through `sort`, empty cells last, and its export follows", async () => {
    const head = [...boms.keys()].sort((a, b) => boms.get(b)!.length - boms.get(a)!.length)[0]!;
    const page = await call("lines", `/boms/${head}?sort=stock%20desc`, { head });
    const stock = page.table.rows.map((r: any) => r.stock);
    const known = stock.filter((v: number | null) => v !== null);
    expect(known).toEqual([...known].sort((a: number, b: number) => b - a));
    expect(stock.slice(known.length).every((v: unknown) => v === null)).toBe(true);
    const column = page.table.columns.find((c: any) => c.field === "stock");
    expect(column.sorted).toBe("desc");
    expect(column.sortHref).toBe(`/boms/${head}?sort=stock+asc`);
    expect(page.table.columns.find((c: any) => c.field === "description").sortHref).toBe(`/boms/${head}?sort=description+asc`);
    expect(page.table.exportHref).toBe(`/boms/${head}/export.csv?sort=stock+desc`);

    const file = (await call("linesCsv", `/boms/${head}/export.csv?sort=stock%20desc`, { head })) as Response;
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(file.headers.get("Content-Disposition")).toMatch(new RegExp(`bom-lines-${head.toLowerCase()}-\\d{4}-\\d{2}-\\d{2}\\.csv`));
    const rows = (await file.text()).replace(/^\uFEFF/, "").trim().split(/\r?\n/);
    expect(rows[0]).toBe('"Item Number","Description","Quantity","Unit","In Stock","Stock Locator"');
    expect(rows.slice(1).map((r) => JSON.parse(`[${r}]`)[0])).toEqual(page.table.rows.map((r: any) => r.item_number));
  });

  it("answers a number that heads no BOM with 404, offering an item its BOM page", async () => {
    const item = componentWith((c) => c.asset > 0);
    const answer = await thrown(call("lines", `/boms/${encodeURIComponent(item)}`, { head: item }));
    expect(answer).toMatchObject({ status: 404, body: { message: `No BOM is headed by ${item}`, related: { href: `/bom/${encodeURIComponent(item)}?back=%2Fcrib-search` } } });
    expect((await thrown(call("lines", "/boms/NOPE-1", { head: "NOPE-1" }))).body).toEqual({ message: "No BOM is headed by NOPE-1", back: "/crib-search", notFound: true });
    const file = (await call("linesCsv", "/boms/NOPE-1/export.csv", { head: "NOPE-1" })) as Response;
    expect(file.status).toBe(404);
  });

  it("opens a head's lines from a search for its number, and an item's export address of 033 leads to the lines' file", async () => {
    for (const head of [headOf("asset"), headOf("other")]) {
      // The search page answers its redirects (with their signals) rather than throwing them.
      const answer = (await call("search", `/crib-search/search?q=${head}`, {})) as Response;
      expect(answer.status).toBe(302);
      expect(answer.headers.get("Location")).toBe(`/boms/${head}?back=${encodeURIComponent(`/crib-search/search?q=${head}&list=1`)}`);
    }
    const head = headOf("pm");
    const file = (await call("bomCsv", `/bom/${head}/export.csv?type=all`, { item: head })) as Response;
    expect(file.status).toBe(302);
    expect(file.headers.get("Location")).toBe(`/boms/${head}/export.csv`);
  });
});

describe("signals", () => {
  it("records the detail page's view and its actions on the server", async () => {
    const busy = (await componentsByTypes()).find((c) => c.asset > 0)!;
    const [doc] = await docs(`?q=${encodeURIComponent(busy.item)}&rows=1`);
    await call("product", `/product/${doc!.id}`, { id: doc!.id });
    await call("whereUsed", `/where-used/${busy.item}?via=pdp_where_used`, { item: busy.item });
    await call("productCsv", `/product/${doc!.id}/export.csv`, { id: doc!.id });
    const used = componentWith((c) => c.asset > 0);
    for (const type of ["all", "asset"]) await call("bomCsv", `/bom/${encodeURIComponent(used)}/export.csv?type=${type}`, { item: used });
    await call("whereUsedCsv", `/where-used/${busy.item}/export.csv?type=asset`, { item: busy.item });
    const signals = await readSignals();
    expect(signals.some((s) => s.type === "view" && s.data.docId === doc!.id)).toBe(true);
    const actions = signals.filter((s) => s.type === "click").map((s) => s.data.action);
    for (const action of ["pdp_where_used", "pdp_export", "bom_export", "asset_bom_export", "where_used_asset_export"]) {
      expect(actions).toContain(action);
    }
    expect(signals.every((s) => typeof s.id === "string" && !Number.isNaN(Date.parse(s.timestamp)))).toBe(true);
    // The item page's export is the item's conversion (details §3): its value in USD, quantity 1.
    const listPrice = doc!.attribute_list_price_d;
    const unitCost = doc!.attribute_unit_cost_d;
    const value = typeof listPrice === "number" ? listPrice : typeof unitCost === "number" ? unitCost : 0;
    const conversions = signals.filter((s) => s.type === "conversion" && s.data.docId === doc!.id && "value" in s.data).map((s) => s.data);
    expect(conversions).toEqual([{ docId: doc!.id, value, currency: "USD", quantity: 1 }]);
  });
});
