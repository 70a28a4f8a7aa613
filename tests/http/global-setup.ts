/**
 * Serves the production build (scripts/e2e-server.mjs, as the browser suite does) on a free port
 * for the HTTP suite, with a sample catalogue of its own, and stops it afterwards. The tests read
 * its address with `inject("baseUrl")`.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { cacheDb, startPortal } from "./portal";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!fs.existsSync(path.join(ROOT, "build/index.js"))) throw new Error("No production build: run `npm run build` first.");
  const portal = await startPortal({ E2E_CATALOG_DB: cacheDb("catalog.db"), E2E_SAMPLE_ITEMS: "1000" });
  project.provide("baseUrl", portal.url);
  return portal.stop;
}
