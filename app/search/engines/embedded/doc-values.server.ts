import { BELOW_MINIMUM, STOCK_LEVEL_FIELD, STOCK_LEVEL_INPUTS } from "../../catalog-fields";
import type { CatalogDb } from "./catalog-db.server";
import { ident } from "./catalog-db.server";
import { ITEM_COLUMNS, type ColumnType } from "./schema";

/** Marks a document without a value in `ids` and `ords`. */
export const NO_VALUE = -1;

/**
 * One field of every document held in memory, as a dictionary of distinct values plus a value id
 * per rowid (a "doc values" column, as search engines keep them). Facet counting, filtering and
 * sorting then run over typed arrays instead of one SQL GROUP BY per facet, which is what keeps
 * multi-select facet counts cheap on a million items.
 */
export class DocValues {
  /** Distinct values as display strings, in first-seen order. */
  readonly dict: string[];
  /** Value id per rowid (index 0 unused: rowids start at 1), NO_VALUE when absent. */
  readonly ids: Int32Array;
  private sortOrds?: Int32Array;
  private readonly lookup: Map<string, number>;

  constructor(
    readonly field: string,
    readonly type: ColumnType,
    dict: string[],
    ids: Int32Array,
    private readonly numeric: number[] | null,
  ) {
    this.dict = dict;
    this.ids = ids;
    this.lookup = new Map(dict.map((value, id) => [value, id]));
  }

  idOf(value: string): number | undefined {
    return this.lookup.get(value);
  }

  /**
   * Sort rank of every value id: numbers numerically, text case-insensitively. Ties share a rank,
   * so callers break them by rowid.
   */
  get ords(): Int32Array {
    if (!this.sortOrds) {
      const order = this.dict.map((_, id) => id);
      if (this.numeric) {
        const numbers = this.numeric;
        order.sort((a, b) => numbers[a]! - numbers[b]!);
      } else {
        const keys = this.dict.map((v) => v.toLowerCase());
        order.sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : 0));
      }
      const ords = new Int32Array(this.dict.length);
      let rank = 0;
      for (let i = 0; i < order.length; i++) {
        const id = order[i]!;
        if (i > 0) {
          const prev = order[i - 1]!;
          const same = this.numeric
            ? this.numeric[prev] === this.numeric[id]
            : this.dict[prev]!.toLowerCase() === this.dict[id]!.toLowerCase();
          if (!same) rank++;
        }
        ords[id] = rank;
      }
      this.sortOrds = ords;
    }
    return this.sortOrds;
  }

  get distinctRanks(): number {
    const ords = this.ords;
    let max = -1;
    for (const o of ords) if (o > max) max = o;
    return max + 1;
  }
}

const COLUMN_TYPES = new Map(ITEM_COLUMNS.map((c) => [c.name, c.type]));

/** A column of the catalogue, or the stock level derived from two (catalog-fields.ts). */
export function isCatalogField(field: string): boolean {
  return COLUMN_TYPES.has(field) || field === STOCK_LEVEL_FIELD;
}

/** BELOW_MINIMUM for every item whose quantity on hand is below its minimum, both known. */
function loadStockLevel(db: CatalogDb, maxRowid: number): DocValues {
  const ids = new Int32Array(maxRowid + 1).fill(NO_VALUE);
  const [onHand, minimum] = [ident(STOCK_LEVEL_INPUTS.onHand), ident(STOCK_LEVEL_INPUTS.minimum)];
  const below = db.prepare(`SELECT rowid FROM items WHERE ${onHand} IS NOT NULL AND ${minimum} IS NOT NULL AND ${onHand} < ${minimum}`).pluck();
  for (const rowid of below.iterate() as Iterable<number>) ids[rowid] = 0;
  return new DocValues(STOCK_LEVEL_FIELD, "string", [BELOW_MINIMUM], ids, null);
}

/** Reads one column of every item into a DocValues; `maxRowid` sizes the arrays. */
export function loadDocValues(db: CatalogDb, field: string, maxRowid: number): DocValues {
  if (field === STOCK_LEVEL_FIELD) return loadStockLevel(db, maxRowid);
  const type = COLUMN_TYPES.get(field);
  if (!type) throw new Error(`Unknown catalogue field: ${field}`);
  const ids = new Int32Array(maxRowid + 1).fill(NO_VALUE);
  const dict: string[] = [];
  const numeric: number[] | null = type === "int" || type === "float" ? [] : null;
  const seen = new Map<string | number, number>();
  const rows = db.prepare(`SELECT rowid, ${ident(field)} FROM items WHERE ${ident(field)} IS NOT NULL`).raw();
  for (const row of rows.iterate() as Iterable<[number, string | number]>) {
    const [rowid, value] = row;
    let id = seen.get(value);
    if (id === undefined) {
      id = dict.length;
      seen.set(value, id);
      dict.push(String(value));
      numeric?.push(Number(value));
    }
    ids[rowid] = id;
  }
  return new DocValues(field, type, dict, ids, numeric);
}
