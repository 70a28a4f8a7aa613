/**
 * The item, Where Used and BOM pages and their downloads, where only the answer counts: what does
 * not exist, hostile item numbers in the path, the Where Used export's file. (Moved from the
 * browser suite: they look at nothing a browser adds. That markup from a path never runs in a
 * browser stays there, in tests/e2e/item-pages.spec.ts.)
 */
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { exportDates, findBomHead, findBomItem } from "../catalogue-probes";
import { anchors, element, headings, textOf } from "./html";
import { get } from "./server";

const BOM_UTF8 = "\uFEFF";
const STACK_TRACE = /\bat [\w.<>$]+ \(?[^\s)]*:\d+:\d+\)?|node_modules|Error: .*\n\s+at /;

const link = (html: string, text: string) => anchors(html).find((a) => a.text === text);

describe("what does not exist", () => {
  it("an unknown item answers 404 with Product Not Found, the search for its text and ← Back to Search", async () => {
    expect((await get("/api/products/NO-SUCH-ITEM")).status, "the made-up item does not exist").toBe(404);
    const response = await get("/product/NO-SUCH-ITEM");
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(headings(html)).toContain("Product Not Found");
    expect(link(html, "← Back to Search")?.href).toBe("/crib-search");
    // Trying again cannot find it; a search for the text may (a typo, another system's number).
    expect(link(html, "Try Again")).toBeUndefined();
    const search = link(html, "Search for “NO-SUCH-ITEM”");
    expect(search).toBeDefined();
    const results = await (await get(search!.href)).text();
    expect(textOf(element(results, "h1", 'id="results-heading"') ?? "")).toMatch(/^\d+ results for "NO-SUCH-ITEM"$/);
  });

  it("an export without records answers 404 with No data available for export", async () => {
    const { item } = await findBomItem(get, (c) => c.asset + c.pm + c.other === 0, "is in no BOM");
    for (const url of [
      `/bom/${encodeURIComponent(item)}/export.csv?type=all`,
      `/where-used/${encodeURIComponent(item)}/export.csv?type=asset`,
      `/where-used/${encodeURIComponent(item)}/export.csv?type=pm`,
    ]) {
      const response = await get(url);
      expect(response.status, url).toBe(404);
      const html = await response.text();
      expect(headings(html), url).toContain("No data available for export");
      expect(link(html, "← Back"), url).toBeDefined();
    }
  });
});

describe("hostile item numbers in the path", () => {
  const SCRIPT = "<script>alert(1)</script>";
  const hostile: [string, string][] = [
    ["../../etc/passwd, encoded", encodeURIComponent("../../etc/passwd")],
    ["<script>, encoded", encodeURIComponent(SCRIPT)],
    ["5,000 x", "x".repeat(5000)],
    ["%00", "%00"],
    ["a%2Fb c#%25", "a%2Fb c#%25"],
  ];

  it.each(["product", "where-used", "bom", "boms"])("/%s/… answers 400 or 404, never runs or leaks anything", async (route) => {
    for (const [name, segment] of hostile) {
      const response = await get(`/${route}/${segment}`);
      const html = await response.text();
      expect(response.status, `${name}: status`).not.toBe(500);
      expect(html, `${name}: no stack trace`).not.toMatch(STACK_TRACE);
      expect(html.toLowerCase().includes("<script>alert"), `${name}: unescaped script`).toBe(false);
      expect(element(html, "main", 'id="main"') ?? "", `${name}: no script in main`).not.toMatch(/<script\b/);
      // A made-up item number is not found on every route, Where Used included (it does not exist).
      expect([400, 404], `${name}: status`).toContain(response.status);
      expect(link(html, "← Back to Search"), name).toBeDefined();
    }
  });

  it.each(["product", "where-used", "bom"])("/%s/…/export.csv answers as its page does: no file for a number with control characters", async (route) => {
    const page = await get(`/${route}/MRO%00%0A1`);
    const file = await get(`/${route}/MRO%00%0A1/export.csv`);
    expect(file.status).toBe(page.status);
    expect([400, 404]).toContain(file.status);
    expect(file.headers.get("content-disposition")).toBeNull();
    expect(await file.text()).toContain(route === "product" ? "Product not found" : "Invalid item number");
  });
});

describe("the Where Used export", () => {
  const filenameOf = (disposition: string | null) => /filename="([^"]+)"/.exec(disposition ?? "")?.[1] ?? "";
  const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

  it("holds the section's records up to 1000, named where-used-asset-all-{item}-{date}.csv", async () => {
    const { item, counts } = await findBomItem(get, (c) => c.asset > 5, "is used in more than 5 asset BOMs");
    const response = await get(`/where-used/${encodeURIComponent(item)}/export.csv?type=asset`);
    expect(response.status).toBe(200);
    const disposition = response.headers.get("content-disposition");
    const name = filenameOf(disposition);
    expect(exportDates().map((d) => `where-used-asset-all-${slug(item)}-${d}.csv`)).toContain(name);
    expect(disposition).toContain("attachment");
    expect(disposition).toContain(`filename="${name}"`);
    // The exact name in RFC 5987 form too, whenever it is not plain ASCII.
    if (!/^[\x20-\x7E]*$/.test(name)) expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent(name)}`);
    // Read with its byte-order mark, which fetch's text() would drop.
    const body = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.arrayBuffer());
    expect(body.startsWith(BOM_UTF8)).toBe(true);
    const csv = Papa.parse<Record<string, string>>(body.slice(1), { header: true, skipEmptyLines: true });
    expect(csv.errors).toEqual([]);
    expect(csv.meta.fields).toEqual(["Org Code", "Item Number", "Asset Number", "Asset Serial Number", "Asset Group", "Asset Description", "Quantity"]);
    expect(csv.data.length).toBeLessThanOrEqual(1000);
    expect(csv.data).toHaveLength(Math.min(counts.asset, 1000));

    // The same as the page's first rows in its default order (item number, all equal here).
    const page = await (await get(`/where-used/${encodeURIComponent(item)}`)).text();
    const firstSection = page.split('<section class="bom-section"')[1] ?? "";
    const range = /<(\w+)\b[^>]*class="range"[^>]*>([\s\S]*?)<\/\1>/.exec(firstSection)?.[2] ?? "";
    expect(textOf(range)).toBe(`1-5 of ${counts.asset}`);
  });
});

describe("a BOM's lines and the addresses that lead there", () => {
  const filenameOf = (disposition: string | null) => /filename="([^"]+)"/.exec(disposition ?? "")?.[1] ?? "";

  it("/boms/{head} is a page and its export a CSV attachment; a number heading nothing is 404", async () => {
    const { head, lines } = await findBomHead(get, "asset", (l) => l.length > 0, "has lines");
    const page = await get(`/boms/${encodeURIComponent(head)}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(headings(await page.text())).toContain(`BOM Lines ${head}`);

    const file = await get(`/boms/${encodeURIComponent(head)}/export.csv?sort=description%20desc`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(file.headers.get("cache-control")).toBe("no-store");
    const disposition = file.headers.get("content-disposition");
    expect(disposition).toContain("attachment");
    expect(exportDates().map((d) => `bom-lines-${head.toLowerCase()}-${d}.csv`)).toContain(filenameOf(disposition));
    const body = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await file.arrayBuffer());
    expect(body.startsWith(BOM_UTF8)).toBe(true);
    const csv = Papa.parse<Record<string, string>>(body.slice(1), { header: true, skipEmptyLines: true });
    expect(csv.meta.fields).toEqual(["Item Number", "Description", "Quantity", "Unit", "In Stock", "Stock Locator"]);
    expect(csv.data.map((r) => r["Item Number"]).sort()).toEqual(lines.map((l) => l.item).sort());
    const descriptions = csv.data.map((r) => r.Description ?? "").filter((d) => d !== "");
    expect(descriptions).toEqual([...descriptions].sort((a, b) => b.localeCompare(a, "en", { sensitivity: "base", numeric: true })));

    for (const path of ["/boms/NO-SUCH-HEAD-1", "/boms/NO-SUCH-HEAD-1/export.csv"]) expect((await get(path)).status, path).toBe(404);
  });

  it("redirects a head's old BOM address and its export, and a search for a head's number, to its lines", async () => {
    const { head } = await findBomHead(get, "asset", (l) => l.length > 0, "has lines");
    const at = (path: string) => get(path, { redirect: "manual" });
    const old = await at(`/bom/${encodeURIComponent(head)}?back=%2Fcrib-search`);
    expect(old.status).toBe(302);
    expect(old.headers.get("location")).toBe(`/boms/${encodeURIComponent(head)}?back=%2Fcrib-search`);
    const oldFile = await at(`/bom/${encodeURIComponent(head)}/export.csv?type=all`);
    expect(oldFile.status).toBe(302);
    expect(oldFile.headers.get("location")).toBe(`/boms/${encodeURIComponent(head)}/export.csv`);
    const search = await at(`/crib-search/search?q=${encodeURIComponent(head.toLowerCase())}`);
    expect(search.status).toBe(302);
    const location = new URL(search.headers.get("location")!, "http://x");
    expect(location.pathname).toBe(`/boms/${encodeURIComponent(head)}`);
    expect(location.searchParams.get("back")).toBe(`/crib-search/search?q=${encodeURIComponent(head.toLowerCase())}&list=1`);
  });

  it("an item's BOM page and export answer for an item number, with the spec's redirect for one type", async () => {
    const { item, counts } = await findBomItem(get, (c) => c.asset > 0 && c.pm + c.other === 0, "is only in asset BOMs");
    const page = await get(`/bom/${encodeURIComponent(item)}`, { redirect: "manual" });
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe(`/asset-bom/${encodeURIComponent(item)}`);
    expect((await get(`/asset-bom/${encodeURIComponent(item)}`)).status).toBe(200);
    const file = await get(`/bom/${encodeURIComponent(item)}/export.csv?type=asset`);
    expect(file.status).toBe(200);
    expect(exportDates().map((d) => `bom-${item.toLowerCase()}-${d}.csv`)).toContain(filenameOf(file.headers.get("content-disposition")));
    expect(Papa.parse((await file.text()).replace(/^\uFEFF/, ""), { skipEmptyLines: true }).data).toHaveLength(counts.asset + 1);
    expect((await get(`/bom/${encodeURIComponent(item)}/export.csv?type=pm`)).status).toBe(404);
  });
});
