import Database from "better-sqlite3";
import type { BomDoc, Doc } from "../../engine";
import { numberKey } from "../../query/query";
import { createIndexes, createSchema, ident, SCHEMA_VERSION, setRankWeights, writeMeta, type CatalogDb } from "./catalog-db.server";
import { ftsTokens } from "./fts-query";
import { NUMBER_FIELDS } from "../../catalog-fields";
import { ftsColumnOf, FTS_INDEX_COLUMNS, ITEM_COLUMN_NAMES, ITEM_COLUMNS, type FtsIndexColumn } from "./schema";

const FTS_NAMES = FTS_INDEX_COLUMNS.map((c) => c.name);
const FTS_COLUMN_OF = new Map(ITEM_COLUMNS.map((c) => [c.name, ftsColumnOf(c)]));
const NUMBER_KIND = new Map<string, number>(NUMBER_FIELDS.map((f) => [f.name, f.kind]));
/** Columns whose words make the vocabulary that "Did you mean" corrects to: words people type. */
const VOCABULARY_COLUMNS = new Set<FtsIndexColumn>(["description", "manufacturer"]);
const VOCABULARY_WORD = /^\p{L}{3,40}$/u;

/** Several part numbers in one field are separated by commas or semicolons (`A1, B2`). */
function numbersOf(value: string): string[] {
  return value.split(/[,;|]/).map((v) => v.trim()).filter(Boolean);
}

/** Values stored in the catalogue: documents are written already validated and typed. */
function toSql(value: unknown): string | number | null {
  if (value === undefined || value === null || value === "") return null;
  if (Array.isArray(value)) return value.join(", ");
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "number" || typeof value === "string") return value;
  return JSON.stringify(value);
}

/**
 * Writes a new catalogue file in one transaction. The file is expected not to exist yet; callers
 * build into a temporary path and rename it into place, so readers never see a half-built file.
 */
export class CatalogWriter {
  readonly db: CatalogDb;
  private itemCount = 0;
  private bomCount = 0;
  private readonly insertItem: Database.Statement;
  private readonly insertFts: Database.Statement;
  private readonly insertBom: Database.Statement;
  private readonly insertKey: Database.Statement;
  /** Word → number of items it occurs in. */
  private readonly vocabulary = new Map<string, number>();

  constructor(path: string) {
    this.db = new Database(path);
    this.db.pragma("journal_mode = OFF");
    this.db.pragma("synchronous = OFF");
    this.db.pragma("cache_size = -65536");
    createSchema(this.db);
    const names = ["rowid", "id", ...ITEM_COLUMNS.map((c) => c.name), "extra_json"];
    this.insertItem = this.db.prepare(
      `INSERT INTO items (${names.map(ident).join(", ")}) VALUES (${names.map(() => "?").join(", ")})`,
    );
    this.insertFts = this.db.prepare(
      `INSERT INTO items_fts (rowid, ${FTS_NAMES.join(", ")}) VALUES (?, ${FTS_NAMES.map(() => "?").join(", ")})`,
    );
    this.insertBom = this.db.prepare(
      "INSERT INTO bom (id, type, org_code, item_number, asset_number, asset_serial_number, asset_group, asset_description, quantity) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    this.insertKey = this.db.prepare("INSERT INTO number_keys (key, item, kind) VALUES (?, ?, ?)");
    this.db.exec("BEGIN");
  }

  addItem(doc: Doc): void {
    const rowid = ++this.itemCount;
    const extra: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(doc)) {
      if (key !== "id" && !ITEM_COLUMN_NAMES.has(key) && value !== null && value !== undefined) extra[key] = value;
    }
    this.insertItem.run(
      rowid,
      doc.id,
      ...ITEM_COLUMNS.map((c) => toSql(doc[c.name])),
      Object.keys(extra).length > 0 ? JSON.stringify(extra) : null,
    );
    const fts = new Map<FtsIndexColumn, string[]>(FTS_NAMES.map((n) => [n, []]));
    const words = new Set<string>();
    for (const column of ITEM_COLUMNS) {
      const target = FTS_COLUMN_OF.get(column.name);
      const value = toSql(doc[column.name]);
      if (!target || value === null) continue;
      const text = String(value);
      fts.get(target)!.push(text);
      const kind = NUMBER_KIND.get(column.name);
      if (kind !== undefined) {
        for (const number of numbersOf(text)) {
          const key = numberKey(number);
          if (!key) continue;
          this.insertKey.run(key, rowid, kind);
          // Also indexed as one token without separators: `MRO-8595736` is found as `mro8595736`.
          if (ftsTokens(number).length > 1) fts.get(target)!.push(key);
        }
      }
      if (VOCABULARY_COLUMNS.has(target)) for (const word of ftsTokens(text)) if (VOCABULARY_WORD.test(word)) words.add(word);
    }
    for (const word of words) this.vocabulary.set(word, (this.vocabulary.get(word) ?? 0) + 1);
    this.insertFts.run(rowid, ...FTS_NAMES.map((n) => fts.get(n)!.join(" ")));
  }

  addBom(record: BomDoc): void {
    this.bomCount++;
    this.insertBom.run(
      record.id,
      record.type,
      record.org_code,
      record.item_number,
      record.asset_number,
      record.asset_serial_number,
      record.asset_group,
      record.asset_description,
      record.quantity,
    );
  }

  get counts(): { items: number; boms: number } {
    return { items: this.itemCount, boms: this.bomCount };
  }

  /** Commits, indexes and closes the file. */
  finish(meta: Record<string, string | number> = {}): void {
    const putWord = this.db.prepare("INSERT INTO vocabulary (term, docs) VALUES (?, ?)");
    for (const [term, docs] of this.vocabulary) putWord.run(term, docs);
    setRankWeights(this.db);
    createIndexes(this.db);
    writeMeta(this.db, {
      schema_version: SCHEMA_VERSION,
      item_count: this.itemCount,
      bom_count: this.bomCount,
      built_at: new Date().toISOString(),
      ...meta,
    });
    this.db.exec("COMMIT");
    this.db.exec("INSERT INTO items_fts(items_fts) VALUES ('optimize')");
    this.db.close();
  }

  /** Abandons the file (the caller deletes it). */
  abort(): void {
    if (this.db.inTransaction) this.db.exec("ROLLBACK");
    this.db.close();
  }
}
