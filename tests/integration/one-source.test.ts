/**
 * No silent change of source (decision 022): an export comes from the engine whose results the page
 * showed, or the user is told before the download and chooses the backup; an item's neighbours come
 * from the engine that answered the item, or there are none.
 */
import fs from "node:fs";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { loadProductPage } from "~/web/product-page.server";
import { loadSearchExport } from "~/web/exports.server";
import { loadSearchPage } from "~/web/search-page.server";
import { answerOf } from "~/web/page-signals.server";
import { useTemporaryCatalog } from "./setup-catalog";

const BASE = "http://fusion.test:6764";
const QUERY = `${BASE}/api/apps/parts/query/parts`;
/** The platform's documents: none of them is in the backup catalogue. */
const FUSION_DOCS = Array.from({ length: 7 }, (_, i) => ({ id: `F-${i}`, item_number_s: `FUS-${i}`, item_description_t: `Fusion pump ${i}` }));

const server = setupServer();
let dir: string;
let failing: "none" | "all" | "cursor" | "neighbours" = "none";

function fusionAnswer(url: URL) {
  const params = url.searchParams;
  const q = params.get("q") ?? "";
  if (failing === "all") return HttpResponse.json({ error: { msg: "down" } }, { status: 503 });
  if (failing === "cursor" && params.has("cursorMark")) return HttpResponse.json({ error: { msg: "down" } }, { status: 503 });
  const product = /item_number_s:"([^"]+)" OR id:/.exec(q);
  if (product) return HttpResponse.json({ responseHeader: { status: 0 }, response: { numFound: 1, start: 0, docs: FUSION_DOCS.filter((d) => d.item_number_s === product[1]) } });
  if (failing === "neighbours") return HttpResponse.json({ error: { msg: "down" } }, { status: 503 });
  const start = Number(params.get("start") ?? 0);
  const rows = Number(params.get("rows") ?? 10);
  const body: Record<string, unknown> = { responseHeader: { status: 0 }, response: { numFound: FUSION_DOCS.length, start, docs: FUSION_DOCS.slice(start, start + rows) } };
  if (params.has("cursorMark")) {
    const at = params.get("cursorMark") === "*" ? 0 : Number(params.get("cursorMark"));
    body.response = { numFound: FUSION_DOCS.length, start: 0, docs: FUSION_DOCS.slice(at, at + rows) };
    body.nextCursorMark = String(Math.min(FUSION_DOCS.length, at + rows));
  }
  return HttpResponse.json(body);
}

beforeAll(() => {
  server.listen({ onUnhandledRequest: "error" });
  ({ dir } = useTemporaryCatalog(300, { FUSION_URL: BASE, FUSION_APP: "parts", FUSION_TIMEOUT_MS: "2000", FUSION_BREAKER_THRESHOLD: "100", SIGNALS_ENABLED: "false" }));
});
beforeEach(() => {
  failing = "none";
  server.use(http.get(QUERY, ({ request }) => fusionAnswer(new URL(request.url))));
  vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(() => {
  server.resetHandlers();
  vi.restoreAllMocks();
});
afterAll(() => {
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const EXPORT = "http://localhost/crib-search/export.csv?q=pump&scope=all&fields=item_number";
const rowsOf = async (response: Response) => (await response.text()).replace(/^\uFEFF/, "").trim().split("\r\n").slice(1);

describe("a search export", () => {
  it("comes from the platform whose results the page showed", async () => {
    const response = answerOf(await loadSearchExport(new Request(EXPORT), {}));
    expect(response.status).toBe(200);
    expect(await rowsOf(response)).toEqual(FUSION_DOCS.map((d) => `"${d.item_number_s}"`));
    expect(response.headers.get("Content-Disposition")).toMatch(/filename="all-results-\d{4}-\d{2}-\d{2}\.csv"/);
  });

  it.each(["all", "cursor"] as const)("goes back to the dialog, which says so and offers the backup, when the platform fails (%s)", async (what) => {
    failing = what;
    const response = answerOf(await loadSearchExport(new Request(EXPORT), {}));
    expect(response.status).toBe(302);
    const dialogUrl = new URL(response.headers.get("Location")!, "http://localhost");
    expect(dialogUrl.searchParams.get("export-step")).toBe("backup");

    const page = await answerOf(await loadSearchPage(new Request(dialogUrl), {})).json();
    const dialog = page.exportDialog!;
    expect(dialog.step).toBe("backup");
    expect(dialog.backupNotice).toMatch(/^The search platform is not answering: this file would come from the backup catalogue of \d{1,2} [A-Z][a-z]+ \d{4}\.$/);
    expect(new URL(dialog.backupHref!, "http://localhost").searchParams.get("source")).toBe("backup");
    expect(new URL(dialog.exportHref, "http://localhost").searchParams.has("source")).toBe(false);

    const file = answerOf(await loadSearchExport(new Request(new URL(dialog.backupHref!, "http://localhost")), {}));
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Disposition")).toMatch(/filename="backup-all-results-\d{4}-\d{2}-\d{2}\.csv"/);
    const rows = await rowsOf(file);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.includes("FUS-"))).toBe(false);
  });

  it("from a page answered by the backup, comes from the backup and says so in the dialog", async () => {
    failing = "all";
    const page = await answerOf(await loadSearchPage(new Request("http://localhost/crib-search/search?q=pump&export=all"), {})).json();
    expect(page.degraded).toBe(true);
    expect(page.exportDialog!.backupNotice).toMatch(/^The search platform is not answering: this file would come from the backup catalogue/);
    expect(page.exportDialog!.hidden).toContainEqual(["source", "backup"]);
    expect(new URL(page.exportDialog!.exportHref, "http://localhost").searchParams.get("source")).toBe("backup");
  });
});

describe("an item's neighbours", () => {
  const opened = (item: string) =>
    new Request(`http://localhost/product/${item}?${new URLSearchParams({ back: "/crib-search/search?q=pump", pos: "1", via: "result" })}`);

  it("come from the platform that answered the item", async () => {
    const page = answerOf(await loadProductPage(opened("FUS-1"), {}, "FUS-1"));
    expect(page.degraded).toBe(false);
    expect(page.neighbours).toMatchObject({ position: 1, total: 7, prev: { itemNumber: "FUS-0" }, next: { itemNumber: "FUS-2" } });
  });

  it("are none, not the backup's, when the platform fails after answering the item", async () => {
    failing = "neighbours";
    const page = answerOf(await loadProductPage(opened("FUS-1"), {}, "FUS-1"));
    expect(page.degraded).toBe(false);
    expect(page.neighbours).toEqual({ prev: null, next: null, position: null, total: null });
  });
});
