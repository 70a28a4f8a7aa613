/** Details §7: the Where Used export asks for the total first (rows 0), then fetches min(total, 1000). */
import fs from "node:fs";
import Papa from "papaparse";
import { afterAll, afterEach, expect, it, vi } from "vitest";
import { services } from "~/registry.server";
import { loadWhereUsedExport } from "~/web/exports.server";
import { answerOf } from "~/web/signals.server";
import { useTemporaryCatalog } from "./setup-catalog";

const { dir } = useTemporaryCatalog(600);

afterEach(() => {
  vi.restoreAllMocks();
});

afterAll(async () => {
  await services().signals.settled();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A component used in at least two asset BOMs. */
async function usedItem(): Promise<{ item: string; uses: number }> {
  const { search } = services();
  const { docs } = (await search.search({ q: "", within: [], filters: [], sort: null, start: 0, rows: 200, facetFields: [] })).value;
  for (const doc of docs) {
    const item = String(doc.item_number_s);
    const uses = (await search.bom({ itemNumber: item, type: "asset", start: 0, rows: 0 })).value.total;
    if (uses > 1) return { item, uses };
  }
  throw new Error("no item used in two asset BOMs in the sample catalogue");
}

it("counts first, then fetches exactly the total", async () => {
  const { item, uses } = await usedItem();
  const bom = vi.spyOn(services().search, "bom");
  const response = answerOf(await loadWhereUsedExport(new Request(`http://localhost/where-used/${encodeURIComponent(item)}/export.csv?type=asset`), item));
  expect(response.status).toBe(200);
  const rows = Papa.parse<string[]>((await response.text()).replace(/^\uFEFF/, ""), { skipEmptyLines: true }).data;
  expect(rows.length - 1).toBe(uses);
  const asked = bom.mock.calls.map(([request]) => ({ start: request.start, rows: request.rows, type: request.type }));
  expect(asked[0]).toEqual({ start: 0, rows: 0, type: "asset" });
  expect(asked[1]).toEqual({ start: 0, rows: uses, type: "asset" });
  expect(asked).toHaveLength(2);
});
