/**
 * npm run bench:engine [-- 100000 1000000]
 *
 * Builds catalogues through the real importer from generated CSV files and prints: import rows/s,
 * file size, p50/p95 latency of typical queries (match-all with the 5 default facets, one word, a
 * part-number prefix, two filters) and cursor rows/s. Results also go to bench/out/engine.json.
 */
import fs from "node:fs";
import path from "node:path";
import Papa from "papaparse";
import type { SearchRequest } from "../app/search/engine";
import { importCatalog } from "../app/search/engines/embedded/catalog-import.server";
import { EmbeddedEngine } from "../app/search/engines/embedded/embedded-engine.server";
import { generateBoms, generateItems } from "../app/search/engines/embedded/sample-data";
import { BOM_COLUMNS, ITEM_COLUMNS } from "../app/search/engines/embedded/schema";
import { DEFAULT_SEARCH_CONFIG } from "../app/search/search-config";
import { mib, ms, percentile, table } from "./lib";

const OUT = path.resolve("bench/out");
const RUNS = 60;
const WARMUP = 10;
const FACETS = DEFAULT_SEARCH_CONFIG.facetFields;

function writeCsv(file: string, header: readonly string[], rows: Iterable<Record<string, unknown>>): void {
  const fd = fs.openSync(file, "w");
  fs.writeSync(fd, `${Papa.unparse([header as string[]])}\n`);
  let chunk: unknown[][] = [];
  const flush = () => {
    if (chunk.length) fs.writeSync(fd, `${Papa.unparse(chunk, { newline: "\n" })}\n`);
    chunk = [];
  };
  for (const row of rows) {
    chunk.push(header.map((h) => row[h] ?? ""));
    if (chunk.length === 5000) flush();
  }
  flush();
  fs.closeSync(fd);
}

function inputs(size: number) {
  const itemsCsv = path.join(OUT, `items-${size}.csv`);
  const bomCsv = path.join(OUT, `bom-${size}.csv`);
  if (!fs.existsSync(itemsCsv) || !fs.existsSync(bomCsv)) {
    process.stderr.write(`generating ${size} items as CSV…\n`);
    writeCsv(itemsCsv, ["id", ...ITEM_COLUMNS.map((c) => c.name)], generateItems(size));
    writeCsv(bomCsv, BOM_COLUMNS, generateBoms(size) as Iterable<unknown> as Iterable<Record<string, unknown>>);
  }
  return { itemsCsv, bomCsv };
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

async function measure(label: string, requests: SearchRequest[], engine: EmbeddedEngine) {
  const samples: number[] = [];
  for (let i = 0; i < RUNS + WARMUP; i++) {
    const took = await time(() => engine.search(requests[i % requests.length]!));
    if (i >= WARMUP) samples.push(took);
  }
  return { label, p50: percentile(samples, 50), p95: percentile(samples, 95), max: Math.max(...samples) };
}

const base: SearchRequest = { q: "", within: [], filters: [], sort: null, start: 0, rows: 20, facetFields: FACETS, highlight: true };

async function run(size: number) {
  fs.mkdirSync(OUT, { recursive: true });
  const { itemsCsv, bomCsv } = inputs(size);
  const target = path.join(OUT, `catalog-${size}.db`);
  const report = await importCatalog({ itemsPath: itemsCsv, bomPath: bomCsv, target });
  const fileBytes = fs.statSync(target).size;

  const engine = new EmbeddedEngine(target);
  const warm = await time(async () => engine.warm(FACETS));
  const all = await engine.search({ ...base, rows: 200 });
  const words = [...new Set(all.docs.flatMap((d) => String(d.item_description_t ?? "").split(/\s+/)).filter((w) => /^[A-Za-z]{4,}$/.test(w)))].slice(0, 30);
  const prefixes = all.docs.slice(0, 30).map((d) => String(d.item_number_s).slice(0, 4));
  const facet = (field: string) => all.facets.find((f) => f.field === field)!.values.map((v) => v.value);
  const orgs = facet("org_code_s");
  const statuses = facet("attribute_status_s");

  const results = [
    await measure("match-all + 5 facets", [base], engine),
    await measure("one word", words.map((q) => ({ ...base, q })), engine),
    await measure("part-number prefix", prefixes.map((q) => ({ ...base, q })), engine),
    await measure(
      "two filters",
      orgs.slice(0, 5).flatMap((org) =>
        statuses.slice(0, 3).map((status) => ({
          ...base,
          filters: [
            { field: "org_code_s", value: org, type: "include" as const },
            { field: "attribute_status_s", value: status, type: "include" as const },
          ],
        })),
      ),
      engine,
    ),
  ];

  const cursorLimit = Math.min(size, 500_000);
  let rows = 0;
  const cursorMs = await time(async () => {
    for await (const batch of engine.cursor({ q: "", within: [], filters: [], sort: null, batchSize: 1000, limit: cursorLimit })) rows += batch.length;
  });
  engine.close();
  return {
    size,
    importRowsPerSecond: report.rowsPerSecond,
    importSeconds: report.seconds,
    importedRows: report.items + report.boms,
    fileBytes,
    facetWarmMs: warm,
    queries: results,
    cursorRows: rows,
    cursorRowsPerSecond: rows / (cursorMs / 1000),
  };
}

const sizes = process.argv.slice(2).map(Number).filter((n) => Number.isInteger(n) && n > 0);
const all = [];
for (const size of sizes.length ? sizes : [100_000, 1_000_000]) {
  const r = await run(size);
  all.push(r);
  console.log(`\n== ${size.toLocaleString("en-US")} items ==`);
  console.log(
    table([
      ["import", `${Math.round(r.importRowsPerSecond).toLocaleString("en-US")} rows/s`, `(${r.importedRows.toLocaleString("en-US")} rows incl. BOM in ${r.importSeconds.toFixed(1)} s)`],
      ["file size", mib(r.fileBytes), ""],
      ["facet warm-up (5 fields)", ms(r.facetWarmMs), "once per catalogue"],
      ["cursor", `${Math.round(r.cursorRowsPerSecond).toLocaleString("en-US")} rows/s`, `(${r.cursorRows.toLocaleString("en-US")} rows)`],
    ]),
  );
  console.log(table([["query", "p50", "p95", "max"], ...r.queries.map((q) => [q.label, ms(q.p50), ms(q.p95), ms(q.max)])]));
}
fs.writeFileSync(path.join(OUT, "engine.json"), JSON.stringify({ node: process.version, date: new Date().toISOString(), results: all }, null, 2));
