import fs from "node:fs";
import Papa from "papaparse";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSignals } from "../support/signals";
import { useTemporaryCatalog } from "./setup-catalog";

const { dir } = useTemporaryCatalog(1500, { EXPORT_LIMIT: "1000" });

type Loader = (args: LoaderFunctionArgs) => Promise<Response> | Response;
let exportCsv: Loader;
let productCsv: Loader;
let bomCsv: Loader;
let linesCsv: Loader;
let whereUsedCsv: Loader;
let api: Loader;

beforeAll(async () => {
  exportCsv = (await import("~/routes/crib-search.export[.]csv")).loader;
  productCsv = (await import("~/routes/product.$id_.export[.]csv")).loader;
  bomCsv = (await import("~/routes/bom.$item_.export[.]csv")).loader;
  linesCsv = (await import("~/routes/boms.$head_.export[.]csv")).loader;
  whereUsedCsv = (await import("~/routes/where-used.$item_.export[.]csv")).loader;
  api = (await import("~/routes/api.search")).loader;
});

afterAll(async () => {
  await readSignals();
  fs.rmSync(dir, { recursive: true, force: true });
});

function args(path: string, params: Record<string, string> = {}): LoaderFunctionArgs {
  return { request: new Request(`http://localhost${path}`), params, context: {} };
}

async function search(query: string) {
  const response = await api(args(`/api/search${query}`));
  return (await response.json()).data as { numFound: number; docs: Record<string, unknown>[]; facets: { field: string; values: { value: string; count: number }[] }[] };
}

/** The CSV body as rows; it must start with the UTF-8 byte-order mark (text() would hide it). */
async function csvOf(response: Response): Promise<string[][]> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  return Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data;
}

const today = new Date().toISOString().slice(0, 10);

describe("/crib-search/export.csv", () => {
  it("streams every result of a search with the chosen fields, labels and a dated name", async () => {
    const { facets } = await search("?rows=0");
    const category = facets.find((f) => f.field === "category_s")!.values.find((v) => v.count < 1000)!;
    const response = await exportCsv(args(`/crib-search/export.csv?f=category:${encodeURIComponent(category.value)}&scope=all&fields=item_number&fields=category`));
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe(
      `attachment; filename="all-results-${today}.csv"`,
    );
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const rows = await csvOf(response);
    expect(rows[0]).toEqual(["Item Number", "Category"]);
    expect(rows).toHaveLength(category.count + 1);
    expect(new Set(rows.slice(1).map((r) => r[1]))).toEqual(new Set([category.value]));

    const conversions = (await readSignals()).filter((signal) => signal.type === "conversion");
    expect(conversions.at(-1)?.data).toMatchObject({ format: "csv", numRecords: category.count, fields: ["item_number", "category"] });
  });

  it("defaults to the first 10 fields in display order and honours a custom file name", async () => {
    const response = await exportCsv(args("/crib-search/export.csv?q=pump&scope=all&filename=%20My%20Pump%20Report%20"));
    expect(response.headers.get("Content-Disposition")).toContain('filename="my-pump-report.csv"');
    const rows = await csvOf(response);
    expect(rows[0]).toEqual([
      "Org Code", "Item Number", "Item Description", "Status", "Stock Locator",
      "Subinventory", "Quantity On Hand", "Quantity On Order", "Item Type", "Manufacturer",
    ]);
  });

  it("exports only the shown page for scope=page", async () => {
    const page2 = await search("?q=&start=20&rows=20&sort=item_number_s%20asc");
    const response = await exportCsv(args("/crib-search/export.csv?sort=item_number+asc&page=2&scope=page&fields=item_number"));
    expect(response.headers.get("Content-Disposition")).toContain(`results-page-2-${today}.csv`);
    const rows = await csvOf(response);
    expect(rows.slice(1).map((r) => r[0])).toEqual(page2.docs.map((d) => d.item_number_s));
  });

  it("asks for confirmation above the export limit and then exports the first {limit} records", async () => {
    const ask = await exportCsv(args("/crib-search/export.csv?scope=all&fields=item_number"));
    expect(ask.status).toBe(302);
    const location = new URL(ask.headers.get("Location")!, "http://localhost");
    expect(location.pathname).toBe("/crib-search/search");
    expect(location.searchParams.get("export-step")).toBe("limit");
    expect(location.searchParams.getAll("fields")).toEqual(["item_number"]);

    const confirmed = await exportCsv(args("/crib-search/export.csv?scope=all&fields=item_number&confirm=1"));
    expect(confirmed.status).toBe(200);
    expect(await csvOf(confirmed)).toHaveLength(1000 + 1);
  });

  it("refuses zero fields and empty results with the dialog's messages", async () => {
    const none = await exportCsv(args("/crib-search/export.csv?q=pump&scope=all&fields=nosuchfield"));
    expect(new URL(none.headers.get("Location")!, "http://x").searchParams.get("export-step")).toBe("no-fields");
    const empty = await exportCsv(args("/crib-search/export.csv?q=zzzqqqxxx&scope=all"));
    expect(new URL(empty.headers.get("Location")!, "http://x").searchParams.get("export-step")).toBe("empty");
  });
});

describe("item, BOM and Where Used exports", () => {
  it("exports one item with its fields and a product file name", async () => {
    const { docs } = await search("?rows=1");
    const doc = docs[0]!;
    const response = await productCsv(args(`/product/${doc.id}/export.csv`, { id: String(doc.id) }));
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toMatch(new RegExp(`filename="product-${String(doc.item_number_s).toLowerCase()}-${today}\\.csv"`));
    const rows = await csvOf(response);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain("Item Number");
    expect(rows[1]![rows[0]!.indexOf("Item Number")]).toBe(doc.item_number_s);
  });

  it("answers 404 for an unknown item", async () => {
    const response = await productCsv(args("/product/nope/export.csv", { id: "nope" }));
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Product not found");
  });

  it("exports Where Used sections and the BOMs they lead to, and refuses numbers without records", async () => {
    // Find a component used in asset BOMs by trying items in catalogue order.
    const { docs } = await search("?rows=100");
    let found: { item: string; rows: string[][] } | null = null;
    for (const doc of docs) {
      const item = String(doc.item_number_s);
      const response = await whereUsedCsv(args(`/where-used/${encodeURIComponent(item)}/export.csv?type=asset`, { item }));
      if (response.status === 200) {
        expect(response.headers.get("Content-Disposition")).toContain(`where-used-asset-all-${item.toLowerCase()}-${today}.csv`);
        found = { item, rows: await csvOf(response) };
        break;
      }
      expect(response.status).toBe(404);
      expect(await response.text()).toContain("No data available for export");
    }
    expect(found).not.toBeNull();
    const used = found!.rows;
    expect(used[0]).toEqual(["Org Code", "Item Number", "Asset Number", "Asset Serial Number", "Asset Group", "Asset Description", "Quantity"]);
    expect(used.length - 1).toBeLessThanOrEqual(1000);
    expect(used.slice(1).every((r) => r[1] === found!.item)).toBe(true);

    // The item's BOM export: every record of it, of every type, the type first.
    const bom = await bomCsv(args(`/bom/${encodeURIComponent(found!.item)}/export.csv?type=all`, { item: found!.item }));
    expect(bom.status).toBe(200);
    expect(bom.headers.get("Content-Disposition")).toContain(`bom-${found!.item.toLowerCase()}-${today}.csv`);
    const rows = await csvOf(bom);
    expect(rows[0]).toEqual(["Type", "Org Code", "Item Number", "Asset Number", "Asset Serial Number", "Asset Group", "Asset Description"]);
    expect(rows.slice(1).every((r) => r[2] === found!.item)).toBe(true);
    expect(rows.slice(1).filter((r) => r[0] === "asset").map((r) => r[3]).sort()).toEqual(used.slice(1).map((r) => r[2]).sort());

    // The lines of the first asset that uses it: the component among them, with its description.
    const head = used[1]![2]!;
    const lines = await linesCsv(args(`/boms/${encodeURIComponent(head)}/export.csv`, { head }));
    expect(lines.status).toBe(200);
    expect(lines.headers.get("Content-Disposition")).toContain(`bom-lines-${head.toLowerCase()}-${today}.csv`);
    const lineRows = await csvOf(lines);
    expect(lineRows[0]).toEqual(["Item Number", "Description", "Quantity", "Unit", "In Stock", "Stock Locator"]);
    const line = lineRows.find((r) => r[0] === found!.item);
    const item = (await search(`?q=${encodeURIComponent(found!.item)}&rows=5`)).docs.find((d) => d.item_number_s === found!.item)!;
    expect(line?.[1]).toBe(item.item_description_t);

    // An item number in no BOM has nothing to export.
    let none: Response | null = null;
    for (const doc of docs) {
      const other = String(doc.item_number_s);
      none = await bomCsv(args(`/bom/${encodeURIComponent(other)}/export.csv?type=all`, { item: other }));
      if (none.status !== 200) break;
    }
    expect(none!.status).toBe(404);
    expect(await none!.text()).toContain("No data available for export");

    const badType = await whereUsedCsv(args(`/where-used/${found!.item}/export.csv?type=other`, { item: found!.item }));
    expect(badType.status).toBe(400);
  });
});
