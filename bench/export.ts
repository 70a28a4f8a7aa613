/**
 * npm run bench:export
 *
 * A 50,000-row CSV export from a 100,000-item embedded catalogue through the running server:
 * time to first byte, total time, rows/s, and the server's peak memory (VmHWM) for 50,000 rows
 * against 5,000 rows, each measured in a fresh server process.
 */
import fs from "node:fs";
import path from "node:path";
import { buildSampleCatalog } from "../app/search/engines/embedded/catalog-build.server";
import { mib, table } from "./lib";
import { buildApp } from "./build";
import { startServer } from "./server";

const OUT = path.resolve("bench/out");
const CATALOG = path.join(OUT, "catalog-100000.db");
const FIELDS = ["org_code", "item_number", "item_description", "status", "stock_locator", "subinventory", "quantity_on_hand", "quantity_on_order", "item_type", "manufacturer"];

async function exportOnce(serverBuild: string, rows: number) {
  // One process, so that its peak memory is the memory of the export.
  const server = await startServer(serverBuild, { CATALOG_DB: CATALOG, EXPORT_LIMIT: String(rows), SIGNALS_ENABLED: "false", WEB_CONCURRENCY: "1" });
  try {
    // One search first, so the baseline includes a warmed catalogue in both runs.
    await (await fetch(`${server.url}/api/search?q=pump`)).text();
    const before = server.peakRss();
    const params = new URLSearchParams({ scope: "all", confirm: "1" });
    for (const f of FIELDS) params.append("fields", f);
    const started = performance.now();
    const response = await fetch(`${server.url}/crib-search/export.csv?${params}`);
    if (!response.ok || !response.body) throw new Error(`export answered ${response.status}`);
    const reader = response.body.getReader();
    let firstByte = 0;
    let bytes = 0;
    let lines = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!firstByte) firstByte = performance.now() - started;
      bytes += value.length;
      for (const b of value) if (b === 10) lines++;
    }
    const total = performance.now() - started;
    const dataRows = lines - 1;
    return { rows: dataRows, firstByteMs: firstByte, totalMs: total, rowsPerSecond: dataRows / (total / 1000), bytes, peakRss: server.peakRss(), rssBefore: before };
  } finally {
    await server.stop();
  }
}

fs.mkdirSync(OUT, { recursive: true });
if (!fs.existsSync(CATALOG)) {
  process.stderr.write("building a 100,000-item sample catalogue…\n");
  buildSampleCatalog(CATALOG, { items: 100_000 });
}
const serverBuild = buildApp();
const small = await exportOnce(serverBuild, 5_000);
const large = await exportOnce(serverBuild, 50_000);
console.log(
  table([
    ["rows", "first byte", "total", "rows/s", "size", "peak RSS"],
    ...[small, large].map((r) => [
      r.rows.toLocaleString("en-US"),
      `${r.firstByteMs.toFixed(0)} ms`,
      `${r.totalMs.toFixed(0)} ms`,
      Math.round(r.rowsPerSecond).toLocaleString("en-US"),
      mib(r.bytes),
      mib(r.peakRss),
    ]),
  ]),
);
console.log(`peak memory ratio 50,000 / 5,000 rows: ${(large.peakRss / small.peakRss).toFixed(3)}`);
fs.writeFileSync(path.join(OUT, "export.json"), JSON.stringify({ node: process.version, date: new Date().toISOString(), small, large }, null, 2));
