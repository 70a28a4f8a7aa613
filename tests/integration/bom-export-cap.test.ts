/** The BOM export stops at EXPORT_CAP, in pages, whatever the engine reports; the Where Used export counts first. */
import fs from "node:fs";
import Papa from "papaparse";
import { afterAll, expect, it, vi } from "vitest";
import { services } from "~/registry.server";
import { loadBomExport } from "~/web/exports.server";
import { answerOf } from "~/web/page-signals.server";
import { useTemporaryCatalog } from "./setup-catalog";

const CAP = 3;
const { dir } = useTemporaryCatalog(600, { EXPORT_CAP: String(CAP) });

afterAll(async () => {
  await services().signals.settled();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A component with more BOM records than the cap. */
async function busyBom(): Promise<{ item: string; records: number }> {
  const { search } = services();
  const { docs } = (await search.search({ q: "", within: [], filters: [], sort: null, start: 0, rows: 200, facetFields: [] })).value;
  for (const doc of docs) {
    const item = String(doc.item_number_s);
    const records = (await search.bom({ itemNumber: item, start: 0, rows: 0 })).value.total;
    if (records > CAP + 1) return { item, records };
  }
  throw new Error("no item with enough BOM records in the sample catalogue");
}

it("writes at most EXPORT_CAP records", async () => {
  const { item, records } = await busyBom();
  const response = answerOf(await loadBomExport(new Request(`http://localhost/bom/${encodeURIComponent(item)}/export.csv?type=all`), {}, item, "bom"));
  expect(response.status).toBe(200);
  const rows = Papa.parse<string[]>((await response.text()).replace(/^\uFEFF/, ""), { skipEmptyLines: true }).data;
  expect(records).toBeGreaterThan(CAP);
  expect(rows.length - 1).toBe(CAP);
});

it("reads in pages of the size asked, up to the limit, and stops when the client goes away", async () => {
  const { item } = await busyBom();
  const pages: number[] = [];
  for await (const page of services().search.bomCursor({ itemNumber: item, limit: CAP + 1 }, {}, { pageSize: 2, pauseMs: 0 })) pages.push(page.length);
  expect(pages).toEqual([2, 2]);

  const controller = new AbortController();
  const read = services().search.bomCursor({ itemNumber: item, limit: 100 }, { signal: controller.signal }, { pageSize: 1, pauseMs: 60_000 })[Symbol.asyncIterator]();
  expect((await read.next()).done).toBe(false);
  const second = read.next();
  controller.abort();
  await expect(second).rejects.toThrow();
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

it("the Where Used export counts first (rows 0), then fetches exactly the total (details §7)", async () => {
  const { item, uses } = await usedItem();
  const bom = vi.spyOn(services().search, "bom");
  const response = answerOf(await loadBomExport(new Request(`http://localhost/where-used/${encodeURIComponent(item)}/export.csv?type=asset`), {}, item, "where-used"));
  expect(response.status).toBe(200);
  const rows = Papa.parse<string[]>((await response.text()).replace(/^\uFEFF/, ""), { skipEmptyLines: true }).data;
  expect(rows.length - 1).toBe(uses);
  const asked = bom.mock.calls.map(([request]) => ({ start: request.start, rows: request.rows, type: request.type }));
  expect(asked[0]).toEqual({ start: 0, rows: 0, type: "asset" });
  expect(asked[1]).toEqual({ start: 0, rows: uses, type: "asset" });
  expect(asked).toHaveLength(2);
  bom.mockRestore();
});
