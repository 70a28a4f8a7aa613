/**
 * The embedded catalogue's item columns: the catalogue fields (search/catalog-fields.ts) under
 * their Fusion index field names, so that the same display rules serve both engines.
 */
import { CATALOG_FIELDS, FTS_GROUPS, type FieldType, type FtsGroup } from "../../catalog-fields";
import { BOM_SORT_FIELDS } from "../../engine";

export type ColumnType = FieldType;

export interface ItemColumn {
  /** Index field name, also the SQLite column name. */
  name: string;
  type: ColumnType;
  /** Part of the full-text index (see FTS_COLUMNS). */
  fts?: FtsGroup;
}

/** Full-text columns and the item fields that feed them. */
export const FTS_COLUMNS = FTS_GROUPS;

export const ITEM_COLUMNS: readonly ItemColumn[] = CATALOG_FIELDS.map(({ name, type, fts }) => (fts ? { name, type, fts } : { name, type }));

export const ITEM_COLUMN_NAMES = new Set(ITEM_COLUMNS.map((c) => c.name));

/** BOM record columns (details-bom-signin §3). */
export const BOM_COLUMNS = ["id", "type", ...BOM_SORT_FIELDS] as const;
