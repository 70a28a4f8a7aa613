/**
 * The embedded catalogue's item fields, under their Fusion index field names so that the same
 * display rules serve both engines. Pure data: shared by the schema, the sample generator, the
 * importer and the query code.
 */
import { BOM_SORT_FIELDS } from "../../engine";

export type ColumnType = "string" | "text" | "int" | "float" | "date";

export interface ItemColumn {
  /** Index field name, also the SQLite column name. */
  name: string;
  type: ColumnType;
  /** Part of the full-text index (see FTS_COLUMNS). */
  fts?: keyof typeof FTS_COLUMNS;
}

/** Full-text columns and the item fields that feed them. */
export const FTS_COLUMNS = {
  item_number: "item number",
  description: "descriptions",
  manufacturer: "manufacturer",
  part_numbers: "manufacturer and supplier part numbers",
} as const;

export const ITEM_COLUMNS: readonly ItemColumn[] = [
  { name: "org_code_s", type: "string" },
  { name: "item_number_s", type: "string", fts: "item_number" },
  { name: "item_description_t", type: "text", fts: "description" },
  { name: "attribute_status_s", type: "string" },
  { name: "attribute_stock_locator_s", type: "string" },
  { name: "attribute_subinventory_s", type: "string" },
  { name: "attribute_quantity_on_hand_i", type: "int" },
  { name: "attribute_quantity_on_order_i", type: "int" },
  { name: "attribute_item_type_s", type: "string" },
  { name: "manufacturer_s", type: "string", fts: "manufacturer" },
  { name: "attribute_manufacturer_part_number_s", type: "string", fts: "part_numbers" },
  { name: "attribute_alternate_manufacturer_part_number_s", type: "string", fts: "part_numbers" },
  { name: "attribute_org_max_stock_level_i", type: "int" },
  { name: "attribute_org_min_stock_level_i", type: "int" },
  { name: "attribute_subinventory_max_stock_level_i", type: "int" },
  { name: "attribute_subinventory_min_stock_level_i", type: "int" },
  { name: "attribute_lead_time_i", type: "int" },
  { name: "attribute_list_price_d", type: "float" },
  { name: "attribute_unit_cost_d", type: "float" },
  { name: "attribute_bpa_price_d", type: "float" },
  { name: "attribute_issue_uom_s", type: "string" },
  { name: "attribute_order_uom_s", type: "string" },
  { name: "attribute_conversion_rate_d", type: "float" },
  { name: "attribute_flm_s", type: "string" },
  { name: "attribute_bpa_number_s", type: "string" },
  { name: "attribute_bpa_line_number_s", type: "string" },
  { name: "attribute_supplier_s", type: "string" },
  { name: "attribute_supplier_site_s", type: "string" },
  { name: "attribute_supplier_part_number_s", type: "string", fts: "part_numbers" },
  { name: "category_s", type: "string" },
  { name: "attribute_org_notes_t", type: "text", fts: "description" },
  { name: "attribute_abc_class_name_s", type: "string" },
  { name: "attribute_fims_number_s", type: "string" },
  { name: "attribute_creation_date_dt", type: "date" },
  { name: "attribute_purchasable_s", type: "string" },
  { name: "attribute_costing_enabled_s", type: "string" },
  { name: "attribute_inventory_valued_s", type: "string" },
  { name: "attribute_planning_method_s", type: "string" },
  { name: "attribute_min_max_category_s", type: "string" },
  { name: "attribute_cycle_count_flag_s", type: "string" },
  { name: "attribute_on_cycle_count_s", type: "string" },
  { name: "attribute_cmpn_s", type: "string" },
  { name: "attribute_acmpn_s", type: "string" },
  { name: "image_urls_s", type: "string" },
  { name: "other_attachments_s", type: "string" },
  { name: "primary_image_url_s", type: "string" },
  { name: "url_s", type: "string" },
  { name: "last_updated_by_s", type: "string" },
  { name: "last_modified_dt", type: "date" },
];

export const ITEM_COLUMN_NAMES = new Set(ITEM_COLUMNS.map((c) => c.name));

/** BOM record columns (details-bom-signin §3). */
export const BOM_COLUMNS = ["id", "type", ...BOM_SORT_FIELDS] as const;
