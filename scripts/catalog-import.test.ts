/**
 * Ctrl-C on `npm run catalog:import` (issue 28): the import stops, removes its temporary file and
 * the journal beside it, says so, and the catalogue is the one it was, byte for byte. Ctrl-C is
 * what a terminal sends: SIGINT to the whole process group (npm, the shell, node).
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const EXAMPLE = "docs/examples/items.csv";
const hash = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");

it("Ctrl-C on npm run catalog:import cleans up, says the catalogue is unchanged, and leaves it so", { timeout: 120_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crib-import-"));
  dirs.push(dir);
  const target = path.join(dir, "catalog.db");
  const first = spawnSync("npm", ["run", "--silent", "catalog:import", "--", EXAMPLE, "--target", target], { encoding: "utf8" });
  expect(first.status, first.stderr).toBe(0);
  const before = hash(target);

  // Long enough to be running when Ctrl-C comes: the example's rows again and again, with item numbers of their own.
  const big = path.join(dir, "items.csv");
  const [header, ...rows] = fs.readFileSync(EXAMPLE, "utf8").trimEnd().split(/\r?\n/);
  const lines = [header];
  for (let n = 0; n < 200_000; n++) {
    const row = rows[n % rows.length]!.split(",");
    row[0] = `ITEM-${String(n).padStart(9, "0")}`;
    row[1] = `WX${n}`;
    row[7] = `MP${n}`;
    lines.push(row.join(","));
  }
  fs.writeFileSync(big, `${lines.join("\n")}\n`);

  const importer = spawn("npm", ["run", "--silent", "catalog:import", "--", big, "--target", target], { detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  importer.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  importer.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  const exited = new Promise<void>((resolve) => importer.once("exit", () => resolve()));

  try {
    const started = Date.now();
    while (!fs.readdirSync(dir).some((name) => name.includes(".tmp-")) && Date.now() - started < 60_000) await new Promise((r) => setTimeout(r, 50));
    expect(fs.readdirSync(dir).some((name) => name.includes(".tmp-")), `the import's temporary file; it said:\n${output}`).toBe(true);
    // Some rows in, as a person would wait before giving up.
    await new Promise((r) => setTimeout(r, 500));
    process.kill(-importer.pid!, "SIGINT");
    await exited;
  } finally {
    if (importer.exitCode === null && importer.signalCode === null) process.kill(-importer.pid!, "SIGKILL");
  }

  expect(output).toContain("Import cancelled; the catalogue is unchanged.");
  expect(fs.readdirSync(dir).sort()).toEqual(["catalog.db", "items.csv"]);
  expect(hash(target)).toBe(before);
});
