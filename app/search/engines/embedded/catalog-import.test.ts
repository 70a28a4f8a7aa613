import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import Papa from "papaparse";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { buildSampleCatalog } from "./catalog-build.server";
import { CatalogImportError, formatProblem, importCatalog, MAX_PROBLEMS, type ImportProblem } from "./catalog-import.server";
import { CatalogWriter } from "./catalog-writer.server";
import { generateBoms, generateItems } from "./sample-data";
import { BOM_COLUMNS } from "./schema";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const EXAMPLES = path.join(ROOT, "docs/examples");

let dir: string;
let target: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "catalog-import-"));
  target = path.join(dir, "catalog.db");
});

afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

function readDb<T>(file: string, query: (db: Database.Database) => T): T {
  const db = new Database(file, { readonly: true });
  try {
    return query(db);
  } finally {
    db.close();
  }
}

const count = (file: string, table: "items" | "bom") =>
  readDb(file, (db) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number);

const item = (file: string, itemNumber: string) =>
  readDb(file, (db) => db.prepare("SELECT * FROM items WHERE item_number_s = ?").get(itemNumber) as Record<string, unknown> | undefined);

async function problemsOf(promise: Promise<unknown>): Promise<{ problems: ImportProblem[]; truncated: boolean }> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CatalogImportError);
  const { problems, truncated } = error as CatalogImportError;
  return { problems, truncated };
}

/** Files in the catalogue's folder other than the inputs: temporary files must not survive. */
const leftovers = (...inputs: string[]) =>
  fs.readdirSync(dir).filter((name) => name !== "catalog.db" && !inputs.includes(path.join(dir, name)));

const HEADER = "item_number_s,item_description_t,attribute_quantity_on_hand_i,attribute_unit_cost_d,attribute_creation_date_dt";

describe("importCatalog", () => {
  it("imports the documented example files", async () => {
    const report = await importCatalog({
      itemsPath: path.join(EXAMPLES, "items.csv"),
      bomPath: path.join(EXAMPLES, "bom.csv"),
      target,
    });
    expect(report).toMatchObject({ items: 7, boms: 6, bomItemsNotInCatalogue: 0 });
    expect(report.fileBytes).toBe(fs.statSync(path.join(EXAMPLES, "items.csv")).size + fs.statSync(path.join(EXAMPLES, "bom.csv")).size);
    expect(count(target, "items")).toBe(7);
    expect(count(target, "bom")).toBe(6);

    expect(item(target, "WD12X10304")?.item_description_t).toBe("Dishwasher Drain Pump Assembly, 120V");
    expect(item(target, "WB44T10011")?.attribute_org_notes_t).toBe('Fits 30" ranges only');
    const lidSwitch = item(target, "WH23X10030");
    expect(lidSwitch?.attribute_quantity_on_order_i).toBeNull();
    expect(lidSwitch?.attribute_quantity_on_hand_i).toBe(0);
    expect(item(target, "DA97-07365A")?.attribute_creation_date_dt).toBe("2019-07-30T19:02:11Z");
    expect(JSON.parse(String(item(target, "WR55X10942")?.extra_json))).toEqual({ legacy_bin_s: "B17" });

    const tool = readDb(target, (db) => db.prepare("SELECT * FROM bom WHERE asset_number = 'TL-00002'").get()) as Record<string, unknown>;
    expect(tool).toMatchObject({ type: "other", item_number: "WB44T10011", quantity: null });
    expect(tool.id).toBeTruthy();
    expect(leftovers(path.join(EXAMPLES, "items.csv"))).toEqual([]);
  });

  it("imports JSON Lines, every generated sample item included", async () => {
    const docs = [...generateItems(400, 11)];
    const itemsPath = write("items.jsonl", docs.map((d) => JSON.stringify(d)).join("\n") + "\n");
    const boms = [...generateBoms(400, 11)];
    const bomPath = write("bom.csv", Papa.unparse(boms, { columns: [...BOM_COLUMNS] }));

    const report = await importCatalog({ itemsPath, bomPath, target });
    expect(report).toMatchObject({ items: 400, boms: boms.length, bomItemsNotInCatalogue: 0 });
    expect(count(target, "items")).toBe(400);
    expect(count(target, "bom")).toBe(boms.length);

    const sample = docs[123]!;
    const stored = item(target, String(sample.item_number_s));
    for (const [key, value] of Object.entries(sample)) expect(stored?.[key], key).toEqual(value);
  });

  it("takes JSON numbers, lists and nulls, and keeps unknown fields", async () => {
    const itemsPath = write(
      "items.jsonl",
      [
        JSON.stringify({ item_number_s: 12345, attribute_quantity_on_hand_i: 4, image_urls_s: ["/a.jpg", "/b.jpg"], plant_s: "LOU", rating: 4.5 }),
        "",
        JSON.stringify({ id: "X-2", item_number_s: "WR55X10942", attribute_unit_cost_d: null }),
      ].join("\r\n"),
    );
    expect(await importCatalog({ itemsPath, target })).toMatchObject({ items: 2 });
    const first = item(target, "12345");
    expect(first).toMatchObject({ id: "12345", attribute_quantity_on_hand_i: 4, image_urls_s: "/a.jpg, /b.jpg" });
    expect(JSON.parse(String(first?.extra_json))).toEqual({ plant_s: "LOU", rating: 4.5 });
    expect(item(target, "WR55X10942")).toMatchObject({ id: "X-2", attribute_unit_cost_d: null });
  });

  it("refuses control characters in text fields, other than tabs and line breaks, naming line and field", async () => {
    const itemsPath = write(
      "items.csv",
      [HEADER, 'WR55X10942,"Thermistor\tSensor\r\nsecond line",12,4.10,2016-04-09', "WD12X10304,\u0000=HYPERLINK(\"http://evil.example\"),1,1.00,2018-11-20"].join("\n"),
    );
    const { problems } = await problemsOf(importCatalog({ itemsPath, target }));
    expect(problems).toEqual([{ file: "items.csv", line: 4, field: "item_description_t", message: "contains the control character U+0000" }]);
    expect(fs.existsSync(target)).toBe(false);
  });

  it("reports bad values with line numbers and field names, counting lines inside quoted cells", async () => {
    const itemsPath = write(
      "items.csv",
      [
        HEADER,
        'WR55X10942,"Fresh Food Thermistor Sensor\nsecond line of the description",12,4.10,2016-04-09',
        "WD12X10304,Drain Pump,12x,38.40,2018-11-20",
        "WH23X10030,Lid Switch,3,cheap,2011-02-30",
        ",No number,1,1.00,2020-01-01",
        "WB44T10011,Too,many,fields,here,really",
      ].join("\n"),
    );
    const { problems, truncated } = await problemsOf(importCatalog({ itemsPath, target }));
    expect(truncated).toBe(false);
    expect(problems).toEqual([
      { file: "items.csv", line: 4, field: "attribute_quantity_on_hand_i", message: 'expected an integer, got "12x"' },
      { file: "items.csv", line: 5, field: "attribute_unit_cost_d", message: 'expected a number, got "cheap"' },
      {
        file: "items.csv",
        line: 5,
        field: "attribute_creation_date_dt",
        message: 'expected an ISO 8601 date such as 2024-03-15 or 2024-03-15T09:30:00Z, got "2011-02-30"',
      },
      { file: "items.csv", line: 6, field: "item_number_s", message: "missing: every item needs an item number" },
      {
        file: "items.csv",
        line: 7,
        message: "expected 5 fields (one per header column), found 6; is a value with a comma not in double quotes?",
      },
    ]);
    expect(formatProblem(problems[0]!)).toBe('items.csv line 4, field attribute_quantity_on_hand_i: expected an integer, got "12x"');
    expect(fs.existsSync(target)).toBe(false);
    expect(leftovers(itemsPath)).toEqual([]);
  });

  it("rejects duplicate item numbers, whatever their case, and duplicate ids", async () => {
    const itemsPath = write(
      "items.csv",
      ["id,item_number_s", "A,WR55X10942", "B,WD12X10304", "C,wr55x10942", "A,WH23X10030"].join("\n"),
    );
    const { problems } = await problemsOf(importCatalog({ itemsPath, target }));
    expect(problems).toEqual([
      { file: "items.csv", line: 4, field: "item_number_s", message: 'duplicate item number "wr55x10942" (first on line 2)' },
      { file: "items.csv", line: 5, field: "id", message: 'duplicate id "A" (first on line 2)' },
    ]);
  });

  it("validates BOM rows: type, quantity, item number, unknown columns and duplicate ids", async () => {
    const itemsPath = path.join(EXAMPLES, "items.csv");
    const bomPath = write(
      "bom.csv",
      [
        "id,type,item_number,asset_number,quantity",
        "B1,Asset,WR55X10942,AST-1,2",
        "B2,spare,WR55X10942,AST-1,1",
        "B3,pm,,PM-1,1",
        "B4,pm,WR55X10942,PM-1,two",
        "B1,pm,WR55X10942,PM-1,1",
      ].join("\n"),
    );
    const { problems } = await problemsOf(importCatalog({ itemsPath, bomPath, target }));
    expect(problems).toEqual([
      { file: "bom.csv", line: 3, field: "type", message: 'expected asset, pm or other, got "spare"' },
      { file: "bom.csv", line: 4, field: "item_number", message: "missing: every BOM record needs the item number of its component" },
      { file: "bom.csv", line: 5, field: "quantity", message: 'expected a number, got "two"' },
      { file: "bom.csv", line: 6, field: "id", message: 'duplicate id "B1" (first on line 2)' },
    ]);

    const unknown = write("bom2.csv", "item_number,asset_number,cost_center,plant\nWR55X10942,AST-1,4410,LOU\n");
    const header = await problemsOf(importCatalog({ itemsPath, bomPath: unknown, target }));
    expect(header.problems.map((p) => [p.file, p.line, p.message.split(";")[0]])).toEqual([
      ["bom2.csv", 1, "unknown column cost_center"],
      ["bom2.csv", 1, "unknown column plant"],
    ]);
  });

  it("needs an item_number_s column, and items", async () => {
    const noColumn = write("a.csv", "number,description\nWR55X10942,Sensor\n");
    expect((await problemsOf(importCatalog({ itemsPath: noColumn, target }))).problems).toEqual([
      { file: "a.csv", line: 1, message: "the header has no item_number_s column (the first line must name the columns)" },
    ]);
    const headerOnly = write("b.csv", `${HEADER}\n`);
    expect((await problemsOf(importCatalog({ itemsPath: headerOnly, target }))).problems[0]?.message).toMatch(/^no items/);
    const empty = write("c.csv", "");
    expect((await problemsOf(importCatalog({ itemsPath: empty, target }))).problems[0]?.message).toMatch(/empty/);
    const missing = path.join(dir, "missing.csv");
    expect((await problemsOf(importCatalog({ itemsPath: missing, target }))).problems[0]).toMatchObject({ file: "missing.csv", line: 0 });
  });

  it("reports JSON Lines problems by line", async () => {
    const itemsPath = write(
      "items.jsonl",
      ['{"item_number_s":"A1"}', "{not json", "[1,2]", '{"item_number_s":"A2","attribute_lead_time_i":{"days":3}}', "null"].join("\n"),
    );
    const { problems } = await problemsOf(importCatalog({ itemsPath, target }));
    expect(problems.map((p) => [p.line, p.field])).toEqual([
      [2, undefined],
      [3, undefined],
      [4, "attribute_lead_time_i"],
      [5, undefined],
    ]);
    expect(problems[0]!.message).toMatch(/^not valid JSON/);
    expect(problems[1]!.message).toBe("expected a JSON object, got a list");
    expect(problems[2]!.message).toBe("expected text or a number, got an object");
    expect(problems[3]!.message).toBe("expected a JSON object, got null");
  });

  it(`lists at most ${MAX_PROBLEMS} problems and says there are more`, async () => {
    const rows = Array.from({ length: 200 }, (_, i) => `P${i},x,bad,1,2020-01-01`);
    const itemsPath = write("items.csv", [HEADER, ...rows].join("\n"));
    const { problems, truncated } = await problemsOf(importCatalog({ itemsPath, target }));
    expect(problems).toHaveLength(MAX_PROBLEMS);
    expect(truncated).toBe(true);
  });

  it("streams large files across chunk boundaries with exact line numbers (CRLF, quoted line breaks, UTF-8)", async () => {
    const lines = [HEADER];
    let physical = 1;
    let badLine = 0;
    const rows = 12_000;
    const FILLER = "für Kühlschrank, Geschirrspüler und Waschmaschine — Ersatzteil".replaceAll(",", "").repeat(3);
    for (let i = 0; i < rows; i++) {
      const multiLine = i % 7 === 0;
      const description = multiLine ? `"Thermostat Ré ${i}\r\nmore, about ""it"""` : `Pompe à eau Ø${i} ${FILLER}`;
      const onHand = i === rows - 3 ? "lots" : String(i);
      physical += 1;
      if (i === rows - 3) badLine = physical;
      if (multiLine) physical += 1;
      lines.push(`N${i},${description},${onHand},1.5,2020-01-01`);
    }
    const itemsPath = write("items.csv", lines.join("\r\n") + "\r\n");
    expect(fs.statSync(itemsPath).size).toBeGreaterThan(2 * 1024 * 1024);

    const { problems } = await problemsOf(importCatalog({ itemsPath, target }));
    expect(problems).toEqual([{ file: "items.csv", line: badLine, field: "attribute_quantity_on_hand_i", message: 'expected an integer, got "lots"' }]);

    const good = write("good.csv", lines.join("\r\n").replace(",lots,", ",0,"));
    expect(await importCatalog({ itemsPath: good, target })).toMatchObject({ items: rows });
    expect(item(target, "N11997")?.item_description_t).toBe(`Pompe à eau Ø11997 ${FILLER}`);
    expect(item(target, "N11991")?.item_description_t).toBe('Thermostat Ré 11991\r\nmore, about "it"');
  }, 30_000); // Two imports of 12,000 rows: a loaded runner takes more than the default 5 s.

  it("stops at a quote that is never closed instead of reading the whole file as one value", async () => {
    const rest = Array.from({ length: 60_000 }, (_, i) => `N${i},Spare part number ${i} for the dishwasher line,1,1.00,2020-01-01`);
    const itemsPath = write("items.csv", [HEADER, "WR55X10942,Sensor,1,1.00,2020-01-01", 'WD12X10304,"Pump,1,1.00,2020-01-01', ...rest].join("\n"));
    expect(fs.statSync(itemsPath).size).toBeGreaterThan(4_000_000);
    const { problems } = await problemsOf(importCatalog({ itemsPath, target }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: "items.csv", line: 3 });
    expect(problems[0]!.message).toMatch(/quote that is never closed/);
  });

  it("reports progress with rows, rate and an estimate", async () => {
    const calls: { phase: string; rows: number; bytesRead: number; totalBytes: number }[] = [];
    await importCatalog({
      itemsPath: path.join(EXAMPLES, "items.csv"),
      bomPath: path.join(EXAMPLES, "bom.csv"),
      target,
      progressIntervalMs: 0,
      onProgress: (p) => calls.push(p),
    });
    expect(calls.map((c) => c.phase)).toEqual([...Array(7).fill("items"), ...Array(6).fill("bom"), "indexing"]);
    expect(calls.at(-1)).toMatchObject({ rows: 13 });
    expect(calls.at(-1)!.bytesRead).toBe(calls.at(-1)!.totalBytes);
  });
});

describe("a failed import keeps the previous catalogue", () => {
  let before: Buffer;

  beforeEach(() => {
    buildSampleCatalog(target, { items: 50 });
    before = fs.readFileSync(target);
  });

  const expectKept = (...inputs: string[]) => {
    expect(fs.readFileSync(target).equals(before)).toBe(true);
    expect(leftovers(...inputs)).toEqual([]);
  };

  it("on a validation error", async () => {
    const itemsPath = write("items.csv", `${HEADER}\nWR55X10942,Sensor,1,1.00,2020-01-01\nWD12X10304,Pump,1,1.00,yesterday\n`);
    await problemsOf(importCatalog({ itemsPath, target }));
    expectKept(itemsPath);
  });

  it("on a BOM error after valid items", async () => {
    const bomPath = write("bom.csv", "item_number,type\nWR55X10942,kit\n");
    await problemsOf(importCatalog({ itemsPath: path.join(EXAMPLES, "items.csv"), bomPath, target }));
    expectKept(bomPath);
  });

  it("on an exception while writing", async () => {
    const itemsPath = write("items.jsonl", [...generateItems(30)].map((d) => JSON.stringify(d)).join("\n"));
    let calls = 0;
    const original = CatalogWriter.prototype.addItem;
    vi.spyOn(CatalogWriter.prototype, "addItem").mockImplementation(function (this: CatalogWriter, doc) {
      if (++calls === 10) throw new Error("disk full");
      original.call(this, doc);
    });
    await expect(importCatalog({ itemsPath, target })).rejects.toThrow("disk full");
    expectKept(itemsPath);
  });

  it("when interrupted", async () => {
    const itemsPath = write("items.jsonl", [...generateItems(3000)].map((d) => JSON.stringify(d)).join("\n"));
    const controller = new AbortController();
    const importing = importCatalog({
      itemsPath,
      target,
      signal: controller.signal,
      progressIntervalMs: 0,
      onProgress: (p) => {
        if (p.rows === 1500) controller.abort();
      },
    });
    await expect(importing).rejects.toThrow();
    expectKept(itemsPath);
  });

  it("and a good import replaces it", async () => {
    await importCatalog({ itemsPath: path.join(EXAMPLES, "items.csv"), target });
    expect(count(target, "items")).toBe(7);
    expect(leftovers()).toEqual([]);
  });
});

describe("npm run catalog:import", () => {
  const tsx = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [tsx, path.join(ROOT, "scripts/catalog-import.ts"), ...args], { cwd: dir, encoding: "utf8" });

  it("prints every problem, keeps the catalogue and exits 1; imports and exits 0 when the files are good", () => {
    buildSampleCatalog(target, { items: 20 });
    const before = fs.readFileSync(target);
    const bad = write("items.csv", `${HEADER}\nWR55X10942,Sensor,12x,1.00,2020-01-01\nWD12X10304,Pump,1,abc,2020-01-01\n`);

    const failed = run(bad, "--target", target);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain('items.csv line 2, field attribute_quantity_on_hand_i: expected an integer, got "12x"');
    expect(failed.stderr).toContain('items.csv line 3, field attribute_unit_cost_d: expected a number, got "abc"');
    expect(failed.stderr).toContain("The previous catalogue was kept.");
    expect(fs.readFileSync(target).equals(before)).toBe(true);

    const ok = run(path.join(EXAMPLES, "items.csv"), `--bom=${path.join(EXAMPLES, "bom.csv")}`, "--target", target);
    expect(ok.stderr).toMatch(/Imported 7 items and 6 BOM records/);
    expect(ok.status).toBe(0);
    expect(count(target, "bom")).toBe(6);

    const usage = run("--target", target);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/Usage: npm run catalog:import/);
  }, 30_000);
});
