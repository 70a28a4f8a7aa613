import fs from "node:fs";
import Papa from "papaparse";
import { generateItems, generateBoms } from "./app/search/engines/embedded/sample-data";
import { ITEM_COLUMNS, BOM_COLUMNS } from "./app/search/engines/embedded/schema";
import { importCatalog } from "./app/search/engines/embedded/catalog-import.server";
const n = Number(process.argv[2] ?? 100000);
const dir = "/tmp/bench-import"; if (!process.argv[3]) { fs.rmSync(dir, { recursive: true, force: true }); fs.mkdirSync(dir); }
const columns = ["id", ...ITEM_COLUMNS.map((c) => c.name)];
if (!process.argv[3]) {
  const out = fs.openSync(`${dir}/items.csv`, "w");
  fs.writeSync(out, columns.join(",") + "\n");
  let batch: unknown[] = [];
  for (const d of generateItems(n)) { batch.push(d); if (batch.length === 5000) { fs.writeSync(out, Papa.unparse(batch, { columns, header: false }) + "\n"); batch = []; } }
  if (batch.length) fs.writeSync(out, Papa.unparse(batch, { columns, header: false }) + "\n");
  fs.closeSync(out);
  fs.writeFileSync(`${dir}/bom.csv`, Papa.unparse([...generateBoms(n)], { columns: [...BOM_COLUMNS] }));
}
let peak = 0; const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 200);
const r = await importCatalog({ itemsPath: `${dir}/items.csv`, bomPath: `${dir}/bom.csv`, target: `${dir}/catalog.db`, onProgress: (p) => console.error(p.phase, p.rows, p.rowsPerSecond, p.etaSeconds?.toFixed(1)) });
clearInterval(timer);
console.log(r, "peak rss MB", Math.round(peak / 1e6));
