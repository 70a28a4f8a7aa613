import type Database from "better-sqlite3";
import { BOM_COLUMNS, FTS_INDEX_COLUMNS, ITEM_COLUMNS, type ColumnType } from "./schema";

export type CatalogDb = Database.Database;

/**
 * Bumped whenever the on-disk layout changes; an older file is rebuilt at start-up (catalog-build)
 * or refused. 2: stemmed full-text index with weighted columns, part-number keys, vocabulary.
 * 3: CMPN and ACMPN searched and looked up as part numbers. 4: BOM lines looked up by the asset,
 * kit or tool that heads them.
 */
export const SCHEMA_VERSION = 4;

const SQL_TYPES: Record<ColumnType, string> = {
  string: "TEXT",
  text: "TEXT",
  int: "INTEGER",
  float: "REAL",
  date: "TEXT",
};

/** Quotes an identifier that comes from the fixed schema (never from a request). */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Creates the catalogue tables in an empty database. Rowids of `items` are dense (1..n) because
 * items are only ever inserted in one pass into a fresh file; the query code relies on that.
 */
export function createSchema(db: CatalogDb): void {
  const columns = ITEM_COLUMNS.map((c) => {
    const collate = c.type === "string" || c.type === "text" ? " COLLATE NOCASE" : "";
    return `${ident(c.name)} ${SQL_TYPES[c.type]}${collate}`;
  });
  db.exec(`
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE items (
      rowid INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      ${columns.join(",\n      ")},
      extra_json TEXT
    );
    CREATE VIRTUAL TABLE items_fts USING fts5(
      ${FTS_INDEX_COLUMNS.map((c) => c.name).join(", ")},
      content='', tokenize="porter unicode61 remove_diacritics 2", prefix='2 3 4'
    );
    CREATE TABLE number_keys (key TEXT NOT NULL, item INTEGER NOT NULL, kind INTEGER NOT NULL);
    CREATE TABLE vocabulary (term TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID;
    CREATE TABLE bom (
      rowid INTEGER PRIMARY KEY,
      ${BOM_COLUMNS.map((c) => `${c} ${c === "quantity" ? "REAL" : "TEXT COLLATE NOCASE"}`).join(", ")}
    );
  `);
}

/** Indexes are built after the bulk insert: much faster than maintaining them row by row. */
export function createIndexes(db: CatalogDb): void {
  db.exec(`
    CREATE INDEX items_item_number ON items(item_number_s COLLATE NOCASE);
    CREATE INDEX number_keys_key ON number_keys(key, kind);
    CREATE UNIQUE INDEX bom_id ON bom(id);
    CREATE INDEX bom_item_type ON bom(item_number COLLATE NOCASE, type);
    CREATE INDEX bom_asset_type ON bom(asset_number COLLATE NOCASE, type);
  `);
}

/** bm25 column weights as the table's default rank, so `ORDER BY rank` weighs the columns. */
export function setRankWeights(db: CatalogDb): void {
  db.prepare("INSERT INTO items_fts(items_fts, rank) VALUES ('rank', ?)").run(`bm25(${FTS_INDEX_COLUMNS.map((c) => c.weight.toFixed(1)).join(", ")})`);
}

export function writeMeta(db: CatalogDb, values: Record<string, string | number>): void {
  const put = db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)");
  for (const [key, value] of Object.entries(values)) put.run(key, String(value));
}

export function readMeta(db: CatalogDb): Record<string, string> {
  const rows = db.prepare("SELECT key, value FROM meta").all() as { key: string; value: string }[];
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}
