/**
 * The embedded catalogue's item columns: the catalogue fields (search/catalog-fields.ts) under
 * their Fusion index field names, so that the same display rules serve both engines.
 */
import { CATALOG_FIELDS, catalogName, type FieldType, type FtsGroup } from "../../catalog-fields";
import { BOM_SORT_FIELDS } from "../../engine";

export type ColumnType = FieldType;

export interface ItemColumn {
  /** Index field name, also the SQLite column name. */
  name: string;
  type: ColumnType;
  /** Part of the full-text index: its group (FTS_GROUPS in catalog-fields.ts). */
  fts?: FtsGroup;
}

/**
 * The full-text index's columns, in order, with their bm25 weights: item number > manufacturer
 * part number > description > the rest (the field registry's "part numbers" group is split so the
 * manufacturer's own number can weigh more than alternates and suppliers' numbers).
 */
export const FTS_INDEX_COLUMNS = [
  { name: "item_number", weight: 10 },
  { name: "mfr_part_number", weight: 6 },
  { name: "description", weight: 3 },
  { name: "other_part_numbers", weight: 1.5 },
  { name: "manufacturer", weight: 1 },
] as const;
export type FtsIndexColumn = (typeof FTS_INDEX_COLUMNS)[number]["name"];

const MFR_PART_NUMBER = catalogName("manufacturer_part_number");

/** The index column an item field feeds, from its full-text group in the field registry. */
export function ftsColumnOf(field: { name: string; fts?: FtsGroup }): FtsIndexColumn | null {
  if (!field.fts) return null;
  if (field.fts === "part_numbers") return field.name === MFR_PART_NUMBER ? "mfr_part_number" : "other_part_numbers";
  return field.fts;
}

export const ITEM_COLUMNS: readonly ItemColumn[] = CATALOG_FIELDS.map(({ name, type, fts }) => (fts ? { name, type, fts } : { name, type }));

export const ITEM_COLUMN_NAMES = new Set(ITEM_COLUMNS.map((c) => c.name));

/** BOM record columns (details-bom-signin §3). */
export const BOM_COLUMNS = ["id", "type", ...BOM_SORT_FIELDS] as const;
