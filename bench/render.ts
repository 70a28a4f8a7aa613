/**
 * npm run bench:render
 *
 * The server's own work per page, without HTTP or a load generator: the production build's request
 * handler is called in this process, one request after another, with the Fusion stand-in answering
 * at once (fault `fixed`, 0 ms, so a repeated request gets the answer computed the first time). For
 * each page: wall time and CPU time per page (median of seven batches) and the page size. The JSON
 * search API through the same engine is the floor: the same Fusion call and parsing, no page.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { buildSampleCatalog } from "../app/search/engines/embedded/catalog-build.server";
import { table } from "./lib";
import { buildApp } from "./build";
import { startStandIn } from "./server";

const OUT = path.resolve("bench/out");
const CATALOG = path.join(OUT, "catalog-5000.db");
const BATCHES = 7;
const PER_BATCH = 300;
const PAGES = [
  ["search page, 20 rows and 5 facets", "/crib-search/search?q=pump&f=org_code:LOU"],
  ["product page", "/product/W29686752"],
  ["JSON search API (no page)", "/api/search?q=pump&f=org_code:LOU"],
] as const;

fs.mkdirSync(OUT, { recursive: true });
if (!fs.existsSync(CATALOG)) buildSampleCatalog(CATALOG, { items: 5000 });
const serverBuild = buildApp();
const standIn = await startStandIn(CATALOG);
try {
  await standIn.fault({ kind: "fixed", ms: 0 });
  // The build reads its configuration when it is loaded.
  Object.assign(process.env, {
    NODE_ENV: "production",
    CATALOG_DB: CATALOG,
    FUSION_URL: standIn.url,
    FUSION_APP: "parts",
    FUSION_TIMEOUT_MS: "2000",
    SIGNALS_ENABLED: "false",
  });
  const { createRequestHandler } = await import("@remix-run/node");
  const build = (await import(pathToFileURL(serverBuild).href)) as ServerBuild;
  const handle = createRequestHandler(build, "production");

  const rows: (string | number)[][] = [["page", "wall per page", "CPU per page", "size"]];
  for (const [label, target] of PAGES) {
    const once = async () => {
      const response = await handle(new Request(`http://127.0.0.1${target}`));
      const body = await response.text();
      if (response.status !== 200) throw new Error(`${target} answered ${response.status}`);
      return Buffer.byteLength(body);
    };
    await fetch(`${standIn.url}/__control/requests`, { method: "DELETE" });
    let size = await once();
    const asked = (await (await fetch(`${standIn.url}/__control/requests`)).json()) as { path: string }[];
    if (!asked.some((r) => r.path.includes("/query/"))) throw new Error(`${target} was not answered through Fusion`);
    for (let i = 0; i < PER_BATCH; i++) size = await once();
    const walls: number[] = [];
    const cpus: number[] = [];
    for (let b = 0; b < BATCHES; b++) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      for (let i = 0; i < PER_BATCH; i++) await once();
      const used = process.cpuUsage(cpu);
      walls.push((performance.now() - started) / PER_BATCH);
      cpus.push((used.user + used.system) / 1000 / PER_BATCH);
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
    // A breaker that opened during the batches would have measured the backup catalogue instead.
    const health = (await (await handle(new Request("http://127.0.0.1/api/health"))).json()) as { data: { engines: { primary: { breaker: { state: string; openedAt: number | null } } } } };
    if (health.data.engines.primary.breaker.state !== "closed") throw new Error(`the breaker opened while ${target} was measured`);
    rows.push([label, `${median(walls).toFixed(2)} ms`, `${median(cpus).toFixed(2)} ms`, `${(size / 1024).toFixed(1)} KB`]);
  }
  console.log(`server work per page, in process, ${BATCHES} × ${PER_BATCH} pages each (medians; CPU includes V8's helper threads):`);
  console.log(table(rows));
} finally {
  standIn.stop();
}
process.exit(0);
