/**
 * An EXPORT_LIMIT above EXPORT_CAP (decision 043): the limit counts as the cap. The dialog asks
 * first and says the file is cut at the cap, and the download then writes exactly what the dialog
 * promised: the first `cap` records, never a refusal after the promise.
 */
import fs from "node:fs";
import Papa from "papaparse";
import { afterAll, expect, it } from "vitest";
import { services } from "~/registry.server";
import { loadSearchExport } from "~/web/exports.server";
import { loadSearchPage } from "~/web/search-page.server";
import { answerOf } from "~/web/page-signals.server";
import { useTemporaryCatalog } from "./setup-catalog";

const { dir } = useTemporaryCatalog(300, { EXPORT_CAP: "100", EXPORT_LIMIT: "1000" });

afterAll(async () => {
  await services().signals.settled();
  fs.rmSync(dir, { recursive: true, force: true });
});

it("the dialog promises the cap, says so and asks first", async () => {
  const response = answerOf(await loadSearchPage(new Request("http://localhost/crib-search/search?export=all"), {}));
  const { exportDialog } = (await response.json()) as unknown as { exportDialog: Record<string, unknown> };
  expect(exportDialog.records).toBe(100);
  expect(exportDialog.needsConfirmation).toBe(true);
  expect(exportDialog.capMessage).toBe("Export limited to 100 records for performance reasons");
  expect(exportDialog.truncationMessage).toBe("100 of 300 records will be exported.");
  expect(exportDialog.limitMessage).toBe("You are trying to export 300 results, but the maximum export limit is 100 records. Do you want to continue?");
});

it("an unconfirmed export over the cap goes back to the dialog's question", async () => {
  const response = answerOf(await loadSearchExport(new Request("http://localhost/crib-search/export.csv?scope=all&fields=item_number"), {}));
  expect(response.status).toBe(302);
  expect(response.headers.get("Location")).toContain("export-step=limit");
});

it("the confirmed export writes the first `cap` records the dialog promised", async () => {
  const response = answerOf(await loadSearchExport(new Request("http://localhost/crib-search/export.csv?scope=all&fields=item_number&confirm=1"), {}));
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toMatch(/^text\/csv/);
  const rows = Papa.parse((await response.text()).replace(/^\uFEFF/, ""), { header: true, skipEmptyLines: true }).data;
  expect(rows).toHaveLength(100);
});

it("writes an export within the cap", async () => {
  const response = answerOf(await loadSearchExport(new Request("http://localhost/crib-search/export.csv?scope=page&fields=item_number"), {}));
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toMatch(/^text\/csv/);
});
