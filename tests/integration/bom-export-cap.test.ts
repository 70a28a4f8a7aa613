/** The BOM export stops at EXPORT_CAP, in pages, whatever the engine reports. */
import fs from "node:fs";
import Papa from "papaparse";
import { afterAll, expect, it } from "vitest";
import { services } from "~/registry.server";
import { bomBatches, loadBomExport } from "~/web/exports.server";
import { answerOf } from "~/web/signals.server";
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
  const response = answerOf(await loadBomExport(new Request(`http://localhost/bom/${encodeURIComponent(item)}/export.csv?type=all`), item));
  expect(response.status).toBe(200);
  const rows = Papa.parse<string[]>((await response.text()).replace(/^\uFEFF/, ""), { skipEmptyLines: true }).data;
  expect(records).toBeGreaterThan(CAP);
  expect(rows.length - 1).toBe(CAP);
});

it("reads in pages of the size asked, up to the limit, and stops when the client goes away", async () => {
  const { item } = await busyBom();
  const pages: number[] = [];
  for await (const page of bomBatches({ itemNumber: item }, undefined, {}, CAP + 1, { pageSize: 2, pauseMs: 0 })) pages.push(page.length);
  expect(pages).toEqual([2, 2]);

  const controller = new AbortController();
  const read = bomBatches({ itemNumber: item }, undefined, { signal: controller.signal }, 100, { pageSize: 1, pauseMs: 60_000 })[Symbol.asyncIterator]();
  expect((await read.next()).done).toBe(false);
  const second = read.next();
  controller.abort();
  await expect(second).rejects.toThrow();
});
