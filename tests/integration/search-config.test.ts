import fs from "node:fs";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, expect, it } from "vitest";
import { readSignals } from "../support/signals";
import { useTemporaryCatalog } from "./setup-catalog";

// A deployment's facet panel and display order.
const { dir } = useTemporaryCatalog(300, {
  FACET_FIELDS: "manufacturer, supplier_s, status",
  FIELD_DISPLAY_ORDER: "item_description,item_number",
});

type Loader = (args: LoaderFunctionArgs) => unknown;
const loaders: Record<string, Loader> = {};

beforeAll(async () => {
  loaders.config = (await import("~/routes/api.config")).loader;
  loaders.search = (await import("~/routes/crib-search.(search)")).loader;
  loaders.product = (await import("~/routes/product.$id")).loader;
});

afterAll(async () => {
  await readSignals();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function call(name: string, path: string, params: Record<string, string> = {}): Promise<any> {
  const answer = await loaders[name]!({ request: new Request(`http://localhost${path}`), params, context: {} });
  return answer instanceof Response ? answer.json() : answer;
}

it("serves the configured facets and display order at /api/config, and the pages follow them", async () => {
  const config = await call("config", "/api/config");
  expect(config.data.facetFields).toEqual(["manufacturer_s", "attribute_supplier_s", "attribute_status_s"]);
  expect(config.data.displayOrder).toEqual(["item_description", "item_number"]);
  expect(config.data.allFacetFields).toContain("org_code_s");

  const page = await call("search", "/crib-search/search?q=pump");
  expect(page.view.facets.map((f: { key: string }) => f.key)).toEqual(["manufacturer", "supplier", "status"]);
  expect(page.view.facets.every((f: { values: unknown[] }) => f.values.length > 0)).toBe(true);

  const id = page.view.rows[0].id as string;
  const product = await call("product", `/product/${id}`, { id });
  const labels = product.specification.map((row: { label: string }) => row.label);
  expect(labels.slice(0, 2)).toEqual(["Item Description", "Item Number"]);
  // The rest follow alphabetically (spec §3).
  expect(labels.slice(2)).toEqual([...labels.slice(2)].sort((a: string, b: string) => a.localeCompare(b)));
});
