/**
 * The spec's export error texts (core-search §8, details-bom-signin §8): `Failed to get export
 * estimate: {reason}`, `Export failed: {message}`, each on a page with the way back and a retry,
 * and {reason}/{message} the text for users, never the engine's (Solr's words, file paths).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";
import { createServices, installServices } from "~/registry.server";
import { loadBomExport, loadSearchExport } from "~/web/exports.server";
import { answerOf } from "~/web/page-signals.server";

const BASE = "http://fusion.test:6764";
const SOLR_TEXT = "java.lang.IllegalStateException: SolrCore parts_shard1 is loading at /var/solr/data";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crib-export-errors-"));
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => {
  server.close();
  installServices(undefined);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Services whose backup catalogue is a file that is no catalogue, with Fusion or without. */
function installBroken(name: string, fusion: boolean) {
  const file = path.join(dir, `${name}.db`);
  fs.writeFileSync(file, "not a database");
  const env: Record<string, string> = { CATALOG_DB: file, SIGNALS_ENABLED: "false" };
  if (fusion) Object.assign(env, { FUSION_URL: BASE, FUSION_APP: "parts", FUSION_TIMEOUT_MS: "400" });
  installServices(createServices(parseConfig(env)));
}

async function problem(response: Response) {
  const html = await response.text();
  return { status: response.status, type: response.headers.get("Content-Type"), html, title: /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "" };
}

describe("export failures", () => {
  it("a count that fails: 'Failed to get export estimate: {reason}' with the way back to the dialog and a retry", async () => {
    installBroken("estimate", false);
    const url = "http://localhost/crib-search/export.csv?q=pump&scope=all&fields=item_number";
    const page = await problem(answerOf(await loadSearchExport(new Request(url), {})));
    expect(page.status).toBe(503);
    expect(page.type).toMatch(/^text\/html/);
    expect(page.title).toBe("Failed to get export estimate: The catalogue is not available yet – Crib Search");
    // Spec §8: the failure, then the question that Try Again answers.
    expect(page.html).toMatch(/<h1 id="error-panel-title">Failed to get export estimate: The catalogue is not available yet<\/h1><p>Would you like to try again\?<\/p>/);
    expect(page.html).toContain('href="/crib-search/search?q=pump&amp;fields=item_number&amp;export=all"');
    expect(page.html).toContain('href="/crib-search/export.csv?q=pump&amp;scope=all&amp;fields=item_number"');
    expect(page.html).not.toMatch(/sqlite|not a database/i);
    expect(page.html).not.toContain(dir);
  });

  it("a file that cannot be started: 'Export failed: {message}', the message the user's and not the engine's", async () => {
    installBroken("cursor", true);
    server.use(
      http.get(`${BASE}/api/apps/parts/query/parts`, ({ request }) => {
        // The count is answered; the export's first batch is refused as a request.
        if (new URL(request.url).searchParams.has("cursorMark")) return HttpResponse.json({ error: { msg: SOLR_TEXT } }, { status: 400 });
        return HttpResponse.json({ responseHeader: { status: 0 }, response: { numFound: 3, start: 0, docs: [] } });
      }),
    );
    const page = await problem(answerOf(await loadSearchExport(new Request("http://localhost/crib-search/export.csv?q=pump&scope=all"), {})));
    expect(page.status).toBe(503);
    expect(page.title).toBe("Export failed: Search failed – Crib Search");
    expect(page.html).not.toMatch(/solr|java\./i);
  });

  it("a BOM export when the platform and the backup both fail: the status's standard name, never Solr's text", async () => {
    installBroken("bom", true);
    server.use(http.get(`${BASE}/api/apps/parts/query/:profile`, () => HttpResponse.json({ error: { msg: SOLR_TEXT } }, { status: 503 })));
    const page = await problem(answerOf(await loadBomExport(new Request("http://localhost/bom/ITEM-1/export.csv"), {}, "ITEM-1", "bom")));
    expect(page.status).toBe(503);
    expect(page.title).toBe("Export failed: HTTP 503: Service Unavailable – Crib Search");
    expect(page.html).toContain('href="/bom/ITEM-1/export.csv"');
    expect(page.html).not.toMatch(/solr|java\./i);
  });
});
