/**
 * Runs the Fusion stand-in until killed:
 *
 *   npx tsx tests/fusion-stand-in/main.ts --port 8764 [--connection close-after-answer]
 *   npx tsx tests/fusion-stand-in/main.ts --port 8764 --catalog .cache/fusion/catalog.db --items 5000
 *
 * Options: --port (default 8764; 0 = random), --host (127.0.0.1), --catalog (none: the recorded
 * documents of recorded/*.json answer; with a path, a sample catalogue of --items items, default
 * 5000, built there when the file is missing), --app (parts), --query-profile (= app),
 * --bom-profile (ge-appliances-boms), --asset-bom-profile (asset-boms), --api-key (none; also
 * FUSION_STAND_IN_API_KEY), --connection (keep-alive, close-after-answer or close-header) and
 * --idle-close-ms (server.ts's Habits; also POST /__control/habits).
 * Prints its URL once it listens. Steer it from another process through /__control (see server.ts).
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { ensureCatalog } from "../../app/search/engines/embedded/catalog-build.server";
import { startStandIn } from "./server";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "8764" },
    host: { type: "string", default: "127.0.0.1" },
    catalog: { type: "string" },
    items: { type: "string", default: "5000" },
    app: { type: "string", default: "parts" },
    "query-profile": { type: "string" },
    "bom-profile": { type: "string", default: "ge-appliances-boms" },
    "asset-bom-profile": { type: "string", default: "asset-boms" },
    "api-key": { type: "string" },
    connection: { type: "string", default: "keep-alive" },
    "idle-close-ms": { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
  strict: true,
});

if (values.help) {
  console.log(
    "Usage: tsx tests/fusion-stand-in/main.ts [--port 8764] [--host 127.0.0.1] [--catalog .cache/fusion/catalog.db] [--items 5000]\n" +
      "       [--app parts] [--query-profile <app>] [--bom-profile ge-appliances-boms] [--asset-bom-profile asset-boms] [--api-key KEY]\n" +
      "       [--connection keep-alive|close-after-answer|close-header] [--idle-close-ms MS]",
  );
  process.exit(0);
}

function integer(name: string, raw: string): number {
  if (!/^\d+$/.test(raw)) {
    console.error(`--${name} must be a whole number, got "${raw}"`);
    process.exit(2);
  }
  return Number(raw);
}

const port = integer("port", values.port);
const items = integer("items", values.items);
const catalogPath = values.catalog === undefined ? undefined : path.resolve(values.catalog);
const connection = values.connection;
if (connection !== "keep-alive" && connection !== "close-after-answer" && connection !== "close-header") {
  console.error(`--connection must be keep-alive, close-after-answer or close-header, got "${connection}"`);
  process.exit(2);
}
const idleCloseMs = values["idle-close-ms"] === undefined ? undefined : integer("idle-close-ms", values["idle-close-ms"]);

if (catalogPath && ensureCatalog(catalogPath, items)) console.log(`Built a sample catalogue of ${items} items at ${catalogPath}`);

const standIn = await startStandIn({
  port,
  host: values.host,
  catalogPath,
  habits: { connection, ...(idleCloseMs === undefined ? {} : { idleCloseMs }) },
  app: values.app,
  queryProfile: values["query-profile"] ?? values.app,
  bomProfile: values["bom-profile"],
  assetBomProfile: values["asset-bom-profile"],
  apiKey: values["api-key"] ?? process.env.FUSION_STAND_IN_API_KEY ?? undefined,
});

console.log(`Fusion stand-in listening on ${standIn.url} (app "${values.app}", ${catalogPath ? `catalogue ${catalogPath}` : "recorded documents"}, connections ${connection})`);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`Fusion stand-in: ${signal}, stopping`);
  await standIn.close();
  process.exit(0);
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void stop(signal));
