import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { buildSampleCatalog, ensureCatalog } from "./catalog-build.server";
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
