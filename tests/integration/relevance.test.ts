import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSampleCatalog } from "~/search/engines/embedded/catalog-build.server";
import { EmbeddedEngine } from "~/search/engines/embedded/embedded-engine.server";
import { figuresByFamily, judgeAll, type Outcome } from "../relevance/evaluate";
import { FAMILIES, JUDGMENTS } from "../relevance/judgments";

/** The bar: every family of the judged set succeeds in at least 90 % of its queries. */
const BAR = 0.9;

let dir: string;
let engine: EmbeddedEngine;
let outcomes: Outcome[];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "crib-relevance-"));
  const file = path.join(dir, "catalog.db");
  buildSampleCatalog(file, { items: 5000 });
  engine = new EmbeddedEngine(file);
  outcomes = await judgeAll(engine, JUDGMENTS);
}, 120_000);

afterAll(() => {
  engine.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("relevance on the 5,000-item sample catalogue", () => {
  it("judges at least ten queries of every family", () => {
    for (const family of FAMILIES) expect(JUDGMENTS.filter((j) => j.family === family).length, family).toBeGreaterThanOrEqual(10);
  });

  it.each(FAMILIES)("%s: a relevant result first, and among the first three, in ≥ 90 % of the queries", (family) => {
    const figures = figuresByFamily(outcomes).find((f) => f.family === family)!;
    const failed = outcomes.filter((o) => o.judgment.family === family && !o.at3).map((o) => o.judgment.q);
    expect(figures.success3, `failed: ${failed.join(", ")}`).toBeGreaterThanOrEqual(BAR);
    expect(figures.success1).toBeGreaterThanOrEqual(BAR);
  });

  it("finds something for every query but the misspellings, which find nothing and offer the correction", () => {
    const zero = outcomes.filter((o) => o.zero).map((o) => o.judgment.family);
    expect(new Set(zero)).toEqual(new Set(["typos"]));
  });
});
