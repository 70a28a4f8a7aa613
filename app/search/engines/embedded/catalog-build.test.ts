import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { buildSampleCatalog, ensureCatalog, schemaVersionOf } from "./catalog-build.server";
import { SCHEMA_VERSION } from "./catalog-db.server";
import { EmbeddedEngine } from "./embedded-engine.server";
import { CatalogWriter } from "./catalog-writer.server";

let dir: string;
let target: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "catalog-build-"));
  target = path.join(dir, "catalog.db");
});

afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

function count(file: string, table: "items" | "bom"): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  } finally {
    db.close();
  }
}

describe("sample catalogues", () => {
  it("ensureCatalog builds one only when the file is missing, creating the folder", () => {
    const nested = path.join(dir, "data", "catalog.db");
    expect(ensureCatalog(nested, 120)).toBe(true);
    expect(count(nested, "items")).toBe(120);
    expect(count(nested, "bom")).toBeGreaterThan(0);
    const built = fs.readFileSync(nested);
    expect(ensureCatalog(nested, 500)).toBe(false);
    expect(fs.readFileSync(nested).equals(built)).toBe(true);
    expect(fs.readdirSync(path.dirname(nested))).toEqual(["catalog.db"]);
  });

  it("buildSampleCatalog removes its temporary file when it fails", () => {
    vi.spyOn(CatalogWriter.prototype, "addBom").mockImplementation(() => {
      throw new Error("boom");
    });
    expect(() => buildSampleCatalog(target, { items: 20 })).toThrow("boom");
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("ensureCatalog removes temporary files abandoned long ago, not those being written", () => {
    const stale = `${target}.tmp-999999999-abcd1234`;
    const live = `${target}.tmp-999999998-0123abcd`;
    fs.writeFileSync(stale, "half a catalogue");
    fs.writeFileSync(live, "a catalogue being built");
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    fs.utimesSync(stale, hourAgo, hourAgo);
    ensureCatalog(target, 10);
    expect(fs.readdirSync(dir).sort()).toEqual(["catalog.db", path.basename(live)]);
  });
});

describe("catalogues of an older schema", () => {
  function ageTo(file: string, version: number): void {
    const db = new Database(file);
    db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(version));
    db.close();
  }

  it("are rebuilt from their own rows at start-up, keeping every item, BOM record and how they were made", async () => {
    buildSampleCatalog(target, { items: 60 });
    ageTo(target, 1);
    expect(schemaVersionOf(target)).toBe(1);
    const boms = count(target, "bom");
    expect(ensureCatalog(target, 500)).toBe(false);
    expect(schemaVersionOf(target)).toBe(SCHEMA_VERSION);
    expect(count(target, "items")).toBe(60);
    expect(count(target, "bom")).toBe(boms);
    const db = new Database(target, { readonly: true });
    const meta = Object.fromEntries((db.prepare("SELECT key, value FROM meta").all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
    db.close();
    expect(meta).toMatchObject({ source: "sample", sample_items: "60", upgraded_from: "1" });
    const engine = new EmbeddedEngine(target);
    expect((await engine.search({ q: "", within: [], filters: [], sort: null, start: 0, rows: 1, facetFields: [] })).total).toBe(60);
    engine.close();
    expect(fs.readdirSync(dir)).toEqual(["catalog.db"]);
  });

  it("stay as they were when the rebuild fails, and the server still starts", () => {
    buildSampleCatalog(target, { items: 10 });
    const db = new Database(target);
    db.exec("DROP TABLE bom");
    db.close();
    ageTo(target, 1);
    const before = fs.readFileSync(target);
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect(() => ensureCatalog(target, 10)).not.toThrow();
    expect(fs.readFileSync(target).equals(before)).toBe(true);
    expect(fs.readdirSync(dir)).toEqual(["catalog.db"]);
  });
});
