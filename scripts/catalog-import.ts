/**
 * Imports a catalogue from CSV or JSON Lines files, replacing the embedded catalogue only when
 * every row is valid (format: docs/catalog-format.md).
 *
 *   npm run catalog:import -- <items.csv|items.jsonl> [--bom <bom.csv>] [--target <catalog.db>]
 */
import { z } from "zod";
import {
  CatalogImportError,
  formatProblem,
  importCatalog,
  type ImportProgress,
} from "../app/search/engines/embedded/catalog-import.server";

const USAGE = `Usage: npm run catalog:import -- <items.csv|items.jsonl> [--bom <bom.csv|bom.jsonl>] [--target <catalog.db>]

Validates every row, then replaces the catalogue in one step. On any problem the previous
catalogue is kept. The target defaults to $CATALOG_DB, else data/catalog.db.`;

const EnvSchema = z.object({ CATALOG_DB: z.string().trim().min(1).optional().catch(undefined) });

interface Args {
  itemsPath: string;
  bomPath?: string;
  target: string;
}

function parseArgs(argv: string[], defaultTarget: string): Args | { error: string } | "help" {
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "-h" || arg === "--help") return "help";
    const flag = /^--(bom|target)(?:=(.*))?$/.exec(arg);
    if (flag) {
      const value = flag[2] ?? argv[++i];
      if (!value) return { error: `--${flag[1]} needs a file name` };
      flags[flag[1]!] = value;
    } else if (arg.startsWith("-")) {
      return { error: `unknown option ${arg}` };
    } else {
      positional.push(arg);
    }
  }
  if (positional.length !== 1) return { error: positional.length === 0 ? "name the items file" : "name one items file" };
  return {
    itemsPath: positional[0]!,
    ...(flags.bom ? { bomPath: flags.bom } : {}),
    target: flags.target ?? defaultTarget,
  };
}

const number = (n: number) => Math.round(n).toLocaleString("en-US");

function duration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m${String(Math.ceil(seconds % 60)).padStart(2, "0")}s`;
}

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} kB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

function printProgress(p: ImportProgress): void {
  if (p.phase === "indexing") {
    process.stderr.write(`rows ${p.rows}  building the search index…\n`);
    return;
  }
  const eta = p.etaSeconds === null ? "" : `  ETA ${duration(p.etaSeconds)}`;
  process.stderr.write(`rows ${p.rows}  ${number(p.rowsPerSecond)} rows/s${eta}\n`);
}

async function main(): Promise<number> {
  const env = EnvSchema.parse(process.env);
  const args = parseArgs(process.argv.slice(2), env.CATALOG_DB ?? "data/catalog.db");
  if (args === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if ("error" in args) {
    process.stderr.write(`${args.error}\n\n${USAGE}\n`);
    return 2;
  }

  const controller = new AbortController();
  // Ctrl-C stops the import, which removes its temporary file. Under `npm run` the same Ctrl-C
  // arrives more than once (the terminal's and npm's copy), so a copy within a second is ignored;
  // a later second Ctrl-C exits at once, and the next import or server start removes the file.
  // `npm run catalog:import` runs this with tsx as a loader of node, not under the tsx command:
  // that one kills its child outright when it does not acknowledge a signal within 30 ms, which a
  // busy importer never does, so nothing was cleaned up and nothing said.
  let interruptedAt = 0;
  const interrupt = () => {
    if (!controller.signal.aborted) {
      interruptedAt = Date.now();
      controller.abort();
    } else if (Date.now() - interruptedAt > 1000) {
      process.exit(130);
    }
  };
  process.on("SIGINT", interrupt);
  process.on("SIGTERM", interrupt);

  try {
    const report = await importCatalog({ ...args, onProgress: printProgress, signal: controller.signal });
    process.stderr.write(
      `Imported ${number(report.items)} items and ${number(report.boms)} BOM records into ${args.target} ` +
        `in ${report.seconds.toFixed(1)} s (${number(report.rowsPerSecond)} rows/s, ${bytes(report.fileBytes)} read).\n`,
    );
    if (report.bomItemsNotInCatalogue > 0) {
      process.stderr.write(
        `Note: ${number(report.bomItemsNotInCatalogue)} BOM records name an item number that is not in the items file.\n`,
      );
    }
    return 0;
  } catch (error) {
    if (controller.signal.aborted) {
      process.stderr.write("Import cancelled; the catalogue is unchanged.\n");
      return 130;
    }
    if (error instanceof CatalogImportError) {
      const count = `${error.truncated ? "at least " : ""}${error.problems.length}`;
      process.stderr.write(`Import failed: ${count} problem${error.problems.length === 1 ? "" : "s"}.\n`);
      for (const problem of error.problems) process.stderr.write(`  ${formatProblem(problem)}\n`);
      if (error.truncated) process.stderr.write(`  (reading stopped after the first ${error.problems.length})\n`);
    } else {
      process.stderr.write(`Import failed: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    process.stderr.write("The previous catalogue was kept.\n");
    return 1;
  } finally {
    process.off("SIGINT", interrupt);
    process.off("SIGTERM", interrupt);
  }
}

process.exitCode = await main();
