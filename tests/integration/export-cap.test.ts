/**
 * Spec §5: an export of more records than EXPORT_CAP fails its validation and is refused with the
 * spec's text, never cut at the cap. Only an EXPORT_LIMIT above the cap lets an export get there.
 */
import fs from "node:fs";
import { afterAll, expect, it } from "vitest";
import { services } from "~/registry.server";
import { loadSearchExport } from "~/web/exports.server";
import { answerOf } from "~/web/signals.server";
import { useTemporaryCatalog } from "./setup-catalog";

const { dir } = useTemporaryCatalog(300, { EXPORT_CAP: "100", EXPORT_LIMIT: "1000" });

afterAll(async () => {
  await services().signals.settled();
  fs.rmSync(dir, { recursive: true, force: true });
});

it("refuses an export over the cap with the spec's text and the way back to the dialog", async () => {
  const response = answerOf(await loadSearchExport(new Request("http://localhost/crib-search/export.csv?scope=all&fields=item_number")));
  expect(response.status).toBe(422);
  expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
  const html = await response.text();
  expect(html).toContain("Export validation failed: Export limited to 100 records for performance reasons");
  expect(html).toContain('href="/crib-search/search?fields=item_number&amp;export=all"');
});

it("writes an export within the cap", async () => {
  const response = answerOf(await loadSearchExport(new Request("http://localhost/crib-search/export.csv?scope=page&fields=item_number")));
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toMatch(/^text\/csv/);
});
