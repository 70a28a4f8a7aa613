/**
 * npm run bench:relevance [-- 100000 1000000]
 *
 * The judged queries of tests/relevance against the embedded engine of this tree ("after") and
 * that of a baseline commit ("before": RELEVANCE_BASELINE, by default the last commit before the
 * forgiving search; its app/search taken with `git archive` into .cache and run as it is, on a
 * catalogue its own code builds), on sample catalogues of each size, in the same run on
 * the same machine. Prints per family success@1, success@3 and the zero-result rate; and the p95
 * query time of each engine with their ratio (target ≤ 1.5) on the same work: the typical queries
 * of bench:engine (match-all with the 5 facets, one word, a part-number prefix, two filters) and
 * the judged queries both engines find items for. The p95 over every judged query is printed too,
 * though there "before" often finds nothing, which costs nothing. The catalogues are built once and
 * kept in .cache/bench-relevance (git-ignored), named after the code that built them; the figures
 * also go to bench/out/relevance.json.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildSampleCatalog } from "../app/search/engines/embedded/catalog-build.server";
import { EmbeddedEngine } from "../app/search/engines/embedded/embedded-engine.server";
import type { SearchRequest } from "../app/search/engine";
import { figuresByFamily, judge, REQUEST, type JudgedEngine, type Outcome } from "../tests/relevance/evaluate";
import { JUDGMENTS } from "../tests/relevance/judgments";
import { percentile, table } from "./lib";

// Under a dot-folder: the extracted main tree must stay out of this tree's typecheck and test globs.
const OUT = path.resolve(".cache/bench-relevance");
const ROUNDS = Number(process.env.RELEVANCE_ROUNDS ?? 3);
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const SIZES = sizes.length > 0 ? sizes : [100_000, 1_000_000];

interface EngineModule {
  EmbeddedEngine: new (file: string) => JudgedEngine & { warm(fields: readonly string[]): void; close(): void };
}
interface BuildModule {
  buildSampleCatalog(target: string, options: { items: number }): { seconds: number };
}

/**
 * The engine the figures are against: the embedded search as it was before the forgiving search
 * (issue 21's "today's figures"); another commit can be named to compare two later versions.
 */
const BASELINE = process.env.RELEVANCE_BASELINE ?? "9bd6fb0";

/** The baseline's app/search (and the helpers it imports), extracted once per commit. */
function beforeTree(): { dir: string; commit: string } {
  const commit = execFileSync("git", ["rev-parse", "--short", BASELINE], { encoding: "utf8" }).trim();
  const dir = path.join(OUT, `main-${commit}`);
  if (!fs.existsSync(path.join(dir, "app/search/engines/embedded/embedded-engine.server.ts"))) {
    fs.mkdirSync(dir, { recursive: true });
    const archive = execFileSync("git", ["archive", commit, "app/search", "app/lib"]);
    execFileSync("tar", ["-x", "-C", dir], { input: archive });
    for (const file of fs.readdirSync(dir, { recursive: true, encoding: "utf8" })) if (/\.test\.tsx?$/.test(file)) fs.rmSync(path.join(dir, file));
  }
  return { dir, commit };
}

/** A name for this tree's catalogue format: the files that decide what a catalogue holds. */
function afterId(): string {
  const files = ["catalog-writer.server.ts", "catalog-db.server.ts", "schema.ts", "sample-data.ts", "fts-query.ts"].map((f) => `app/search/engines/embedded/${f}`);
  const hash = createHash("sha256");
  for (const file of [...files, "app/search/query/query.ts", "app/search/catalog-fields.ts"]) hash.update(fs.readFileSync(file));
  return hash.digest("hex").slice(0, 10);
}

function ensureBuilt(file: string, size: number, build: (target: string, options: { items: number }) => { seconds: number }, label: string): void {
  if (fs.existsSync(file)) return;
  process.stderr.write(`building the ${label} catalogue of ${size.toLocaleString("en")} items…\n`);
  const report = build(file, { items: size });
  process.stderr.write(`  ${report.seconds.toFixed(1)} s, ${(fs.statSync(file).size / 1024 / 1024).toFixed(0)} MiB\n`);
}

const pct = (x: number) => `${Math.round(x * 100)} %`;

async function run(size: number, main: { dir: string; commit: string }) {
  const beforeEngineModule = (await import(pathToFileURL(path.join(main.dir, "app/search/engines/embedded/embedded-engine.server.ts")).href)) as EngineModule;
  const beforeBuild = (await import(pathToFileURL(path.join(main.dir, "app/search/engines/embedded/catalog-build.server.ts")).href)) as BuildModule;
  const beforeFile = path.join(OUT, `before-${main.commit}-${size}.db`);
  const afterFile = path.join(OUT, `after-${afterId()}-${size}.db`);
  ensureBuilt(beforeFile, size, beforeBuild.buildSampleCatalog, `before (${main.commit})`);
  ensureBuilt(afterFile, size, buildSampleCatalog, "this tree's");

  const engines = { before: new beforeEngineModule.EmbeddedEngine(beforeFile), after: new EmbeddedEngine(afterFile) };
  for (const engine of Object.values(engines)) {
    engine.warm(REQUEST.facetFields);
    for (const judgment of JUDGMENTS) await judge(engine, judgment);
  }
  const outcomes: Record<"before" | "after", Outcome[]> = { before: [], after: [] };
  const times: Record<"before" | "after", number[]> = { before: [], after: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const judgment of JUDGMENTS) {
      // Interleaved, so both engines meet the same load on the shared machine.
      for (const name of round % 2 === 0 ? (["before", "after"] as const) : (["after", "before"] as const)) {
        const outcome = await judge(engines[name], judgment);
        times[name].push(outcome.ms);
        if (round === 0) outcomes[name].push(outcome);
      }
    }
  }
  // The typical queries of bench:engine, which both engines answer with the same work.
  const all = await engines.after.search({ ...REQUEST, q: "", rows: 200 });
  const words = [...new Set(all.docs.flatMap((d) => String(d.item_description_t ?? "").split(/\s+/)).filter((w) => /^[A-Za-z]{4,}$/.test(w)))].slice(0, 30);
  const prefixes = all.docs.slice(0, 30).map((d) => String(d.item_number_s).slice(0, 4));
  const facet = (field: string) => all.facets.find((f) => f.field === field)!.values.map((v) => v.value);
  const typical: SearchRequest[] = [
    { ...REQUEST, q: "" },
    ...words.map((q) => ({ ...REQUEST, q })),
    ...prefixes.map((q) => ({ ...REQUEST, q })),
    ...facet("org_code_s").slice(0, 5).flatMap((org) =>
      facet("attribute_status_s").slice(0, 3).map((status) => ({
        ...REQUEST,
        q: "",
        filters: [
          { field: "org_code_s", value: org, type: "include" as const },
          { field: "attribute_status_s", value: status, type: "include" as const },
        ],
      })),
    ),
  ];
  const typicalTimes: Record<"before" | "after", number[]> = { before: [], after: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const request of typical) {
      for (const name of round % 2 === 0 ? (["before", "after"] as const) : (["after", "before"] as const)) {
        const started = performance.now();
        await engines[name].search(request);
        typicalTimes[name].push(performance.now() - started);
      }
    }
  }
  engines.before.close();
  engines.after.close();

  const before = figuresByFamily(outcomes.before);
  const after = figuresByFamily(outcomes.after);
  console.log(`\n${size.toLocaleString("en")} items (${JUDGMENTS.length} judged queries, ${ROUNDS} rounds)`);
  console.log(
    table([
      ["family", "queries", "success@1 before → after", "success@3 before → after", "zero results before → after"],
      ...after.map((a, i) => {
        const b = before[i]!;
        return [a.family, a.queries, `${pct(b.success1)} → ${pct(a.success1)}`, `${pct(b.success3)} → ${pct(a.success3)}`, `${pct(b.zeroRate)} → ${pct(a.zeroRate)}`];
      }),
    ]),
  );
  // The judged queries both engines find items for: the same kind of work on both sides.
  const bothFound = outcomes.after.map((o, i) => !o.zero && !outcomes.before[i]!.zero);
  const same = (name: "before" | "after") => [...typicalTimes[name], ...times[name].filter((_, i) => bothFound[i % JUDGMENTS.length])];
  const stats = (values: number[]) => ({ p50: percentile(values, 50), p95: percentile(values, 95), samples: values.length });
  const timing = {
    sameWork: { before: stats(same("before")), after: stats(same("after")) },
    judged: { before: stats(times.before), after: stats(times.after) },
  };
  const ratio = timing.sameWork.after.p95 / timing.sameWork.before.p95;
  const line = (label: string, t: { before: ReturnType<typeof stats>; after: ReturnType<typeof stats> }) =>
    `${label}: p50 ${t.before.p50.toFixed(1)} → ${t.after.p50.toFixed(1)} ms, p95 ${t.before.p95.toFixed(1)} → ${t.after.p95.toFixed(1)} ms (${t.after.samples} samples each), ratio of p95 ${(t.after.p95 / t.before.p95).toFixed(2)}`;
  console.log(line("query time, same work (typical queries + judged queries both find)", timing.sameWork) + ` (≤ 1.5: ${ratio <= 1.5 ? "pass" : "FAIL"})`);
  console.log(line("query time, every judged query (before finds nothing for many)", timing.judged));
  return { size, before, after, timing, ratio };
}

fs.mkdirSync(OUT, { recursive: true });
const main = beforeTree();
const load = fs.existsSync("/proc/loadavg") ? fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0] : "?";
console.log(`before: ${main.commit}; load average ${load}`);
const results = [];
for (const size of SIZES) results.push(await run(size, main));
fs.mkdirSync("bench/out", { recursive: true });
fs.writeFileSync(path.join("bench/out", "relevance.json"), JSON.stringify({ at: new Date().toISOString(), main: main.commit, results }, null, 2));
