/**
 * The catalogue's item fields, each declared once (as Blacklight's catalog_controller declares its
 * fields): index field name (Fusion's, also the embedded catalogue's column), key, type, label
 * (spec §3), whether it is searched as text (and so highlighted), whether it can be a facet, and
 * where the views show it: the display order (the order of this list), the result list's columns,
 * the Sort By menu, the printed pick list, how the item page reads its value, and whether it is a
 * part number that opens its item. Labels, the sort allow-list and menu, the export fields, the
 * API's field names, the embedded SQL schema, the highlighted fields and the number look-ups are
 * all derived from it. Pure data, for the domain and both engines; the browser's search page is
 * given what it needs by the view, so this table stays on the server.
 */

export type FieldType = "string" | "text" | "int" | "float" | "date";

/** The full-text groups of the embedded catalogue, and what feeds each. */
export const FTS_GROUPS = {
  item_number: "item number",
  description: "descriptions",
  manufacturer: "manufacturer",
  part_numbers: "manufacturer and supplier part numbers",
} as const;
export type FtsGroup = keyof typeof FTS_GROUPS;

export interface CatalogField {
  /** Index field name (`attribute_status_s`), also the embedded catalogue's column name. */
  name: string;
  /** The name without type prefix and suffix (`status`): URLs, exports and display order use it. */
  key: string;
  type: FieldType;
  label: string;
  /** Searched as text (in this full-text group) and highlighted in results. */
  fts?: FtsGroup;
  /** May be a facet (spec §3 "Facet fields"). */
  facet?: true;
  /**
   * `false`: not in spec §3's display order, which is this list's order; the item page shows it
   * after those, alphabetically among the item's other fields.
   */
  displayOrder?: false;
  /** Its position among the result list's columns (spec §3 "Result-list fields"), from 1. */
  column?: number;
  /** In the search page's Sort By menu (spec §9), with the words of its ascending and descending options. */
  sortMenu?: readonly [asc: string, desc: string];
  /** Its position among the printed pick list's columns (the order a picker reads them), from 1. */
  pickList?: number;
  /** How the item page reads the value: a price in USD, a number of days, or media (the image and links, never an N/A row). */
  reads?: "price" | "days" | "media";
  /** A part number, kept as a key for exact look-ups; the kind orders exact matches (OPENING_KINDS open the item). */
  number?: NumberKind;
}

/** Item number, the manufacturer's part number (CMPN as item pages show it too), alternates, the supplier's. */
export type NumberKind = 0 | 1 | 2 | 3;
/** Kinds that open an item when a query is exactly that number: item and manufacturer part numbers (CMPN included). */
export const OPENING_KINDS: readonly NumberKind[] = [0, 1];

const DECLARED = [
  { name: "org_code_s", key: "org_code", type: "string", label: "Org Code", facet: true, sortMenu: ["A-Z", "Z-A"] },
  { name: "item_number_s", key: "item_number", type: "string", label: "Item Number", fts: "item_number", facet: true, column: 1, pickList: 3, number: 0 },
  { name: "item_description_t", key: "item_description", type: "text", label: "Item Description", fts: "description", column: 2, pickList: 4 },
  { name: "attribute_status_s", key: "status", type: "string", label: "Status", facet: true, column: 6, pickList: 7 },
  { name: "attribute_stock_locator_s", key: "stock_locator", type: "string", label: "Stock Locator", facet: true, pickList: 1 },
  { name: "attribute_subinventory_s", key: "subinventory", type: "string", label: "Subinventory", facet: true, pickList: 2 },
  { name: "attribute_quantity_on_hand_i", key: "quantity_on_hand", type: "int", label: "Quantity On Hand", facet: true, column: 7, pickList: 5 },
  { name: "attribute_quantity_on_order_i", key: "quantity_on_order", type: "int", label: "Quantity On Order" },
  { name: "attribute_item_type_s", key: "item_type", type: "string", label: "Item Type", facet: true, sortMenu: ["A-Z", "Z-A"] },
  { name: "manufacturer_s", key: "manufacturer", type: "string", label: "Manufacturer", fts: "manufacturer", facet: true, column: 3 },
  { name: "attribute_manufacturer_part_number_s", key: "manufacturer_part_number", type: "string", label: "Manufacturer Part Number", fts: "part_numbers", facet: true, column: 4, number: 1 },
  { name: "attribute_alternate_manufacturer_part_number_s", key: "alternate_manufacturer_part_number", type: "string", label: "Alternate Manufacturer Part Number(s)", fts: "part_numbers", facet: true, number: 2 },
  { name: "attribute_org_max_stock_level_i", key: "org_max_stock_level", type: "int", label: "Org Max Stock Level", facet: true },
  { name: "attribute_org_min_stock_level_i", key: "org_min_stock_level", type: "int", label: "Org Min Stock Level", facet: true },
  { name: "attribute_subinventory_max_stock_level_i", key: "subinventory_max_stock_level", type: "int", label: "Subinventory Max Stock Level", facet: true },
  { name: "attribute_subinventory_min_stock_level_i", key: "subinventory_min_stock_level", type: "int", label: "Subinventory Min Stock Level", facet: true },
  { name: "attribute_lead_time_i", key: "lead_time", type: "int", label: "Lead Time", reads: "days" },
  { name: "attribute_list_price_d", key: "list_price", type: "float", label: "List Price", reads: "price" },
  { name: "attribute_unit_cost_d", key: "unit_cost", type: "float", label: "Unit Cost", reads: "price" },
  { name: "attribute_bpa_price_d", key: "bpa_price", type: "float", label: "BPA Price", reads: "price" },
  { name: "attribute_issue_uom_s", key: "issue_uom", type: "string", label: "Issue UOM", pickList: 6 },
  { name: "attribute_order_uom_s", key: "order_uom", type: "string", label: "Order UOM" },
  { name: "attribute_conversion_rate_d", key: "conversion_rate", type: "float", label: "Conversion Rate" },
  { name: "attribute_flm_s", key: "flm", type: "string", label: "FLM" },
  { name: "attribute_bpa_number_s", key: "bpa_number", type: "string", label: "BPA Number", facet: true },
  { name: "attribute_bpa_line_number_s", key: "bpa_line_number", type: "string", label: "BPA Line Number", facet: true },
  { name: "attribute_supplier_s", key: "supplier", type: "string", label: "Supplier", facet: true },
  { name: "attribute_supplier_site_s", key: "supplier_site", type: "string", label: "Supplier Site", facet: true },
  { name: "attribute_supplier_part_number_s", key: "supplier_part_number", type: "string", label: "Supplier Part Number", fts: "part_numbers", facet: true, number: 3 },
  { name: "category_s", key: "category", type: "string", label: "Category", facet: true, column: 5 },
  { name: "attribute_org_notes_t", key: "org_notes", type: "text", label: "Org Notes", fts: "description" },
  { name: "attribute_abc_class_name_s", key: "abc_class_name", type: "string", label: "ABC Class Name", facet: true },
  { name: "attribute_fims_number_s", key: "fims_number", type: "string", label: "Fims Number", facet: true },
  { name: "attribute_creation_date_dt", key: "creation_date", type: "date", label: "Creation Date" },
  { name: "attribute_purchasable_s", key: "purchasable", type: "string", label: "Purchasable", facet: true },
  { name: "attribute_costing_enabled_s", key: "costing_enabled", type: "string", label: "Costing Enabled", facet: true },
  { name: "attribute_inventory_valued_s", key: "inventory_valued", type: "string", label: "Inventory Valued", facet: true },
  { name: "attribute_planning_method_s", key: "planning_method", type: "string", label: "Planning Method" },
  { name: "attribute_min_max_category_s", key: "min_max_category", type: "string", label: "Min Max Category" },
  { name: "attribute_cycle_count_flag_s", key: "cycle_count_flag", type: "string", label: "Cycle Count Flag", facet: true },
  { name: "attribute_on_cycle_count_s", key: "on_cycle_count", type: "string", label: "On Cycle Count", facet: true },
  { name: "attribute_cmpn_s", key: "cmpn", type: "string", label: "CMPN", fts: "part_numbers", facet: true, number: 1 },
  { name: "attribute_acmpn_s", key: "acmpn", type: "string", label: "ACMPN", fts: "part_numbers", facet: true, number: 2 },
  { name: "image_urls_s", key: "image_urls", type: "string", label: "Image Urls", reads: "media" },
  { name: "other_attachments_s", key: "other_attachments", type: "string", label: "Other Attachments", reads: "media" },
  { name: "primary_image_url_s", key: "primary_image_url", type: "string", label: "Primary Image Url", reads: "media" },
  { name: "url_s", key: "url", type: "string", label: "Url", displayOrder: false },
  { name: "last_updated_by_s", key: "last_updated_by", type: "string", label: "Last Updated By", displayOrder: false },
  { name: "last_modified_dt", key: "last_modified", type: "date", label: "Last Modified", displayOrder: false },
] as const satisfies readonly CatalogField[];

/** A catalogue field's key: code that names a field by its key is checked against this list. */
export type CatalogKey = (typeof DECLARED)[number]["key"];

export const CATALOG_FIELDS: readonly CatalogField[] = DECLARED;

/** Spec §3's display order, as item field keys. */
export const DISPLAY_ORDER: readonly string[] = CATALOG_FIELDS.filter((f) => f.displayOrder !== false).map((f) => f.key);

function keysBy(position: "column" | "pickList"): string[] {
  return CATALOG_FIELDS.filter((f) => f[position] !== undefined)
    .sort((a, b) => a[position]! - b[position]!)
    .map((f) => f.key);
}

/** The result list's columns (spec §3's result-list fields but `id`), as item field keys, in order. */
export const RESULT_COLUMNS: readonly string[] = keysBy("column");

/** The printed pick list's columns, as item field keys, in the order a picker reads them. */
export const PICK_LIST_COLUMNS: readonly string[] = keysBy("pickList");

/** The Sort By menu's fields, in this list's order, with the words of each direction. */
export const SORT_MENU_FIELDS = CATALOG_FIELDS.filter((f) => f.sortMenu).map((f) => ({ key: f.key, label: f.label, words: f.sortMenu! }));

/** Part-number fields and their kinds (see `number`). */
export const NUMBER_FIELDS: readonly { name: string; kind: NumberKind }[] = CATALOG_FIELDS.filter((f) => f.number !== undefined).map((f) => ({ name: f.name, kind: f.number! }));

/** The numbers that open their item (OPENING_KINDS): the item number, the manufacturer's part number and CMPN. */
export const OPENING_NUMBER_FIELDS: readonly string[] = NUMBER_FIELDS.filter((f) => OPENING_KINDS.includes(f.kind)).map((f) => f.name);

/** Spec §3: the facet panel's default five, in order. */
export const DEFAULT_FACET_FIELDS: readonly string[] = [
  "org_code_s",
  "category_s",
  "manufacturer_s",
  "attribute_status_s",
  "attribute_item_type_s",
];

/**
 * A facet no index holds: whether an item's quantity on hand is below its organisation's minimum
 * stock level (both known). Its one value is BELOW_MINIMUM; excluding it leaves the rest. The
 * embedded catalogue derives it from the two fields, Fusion asks for it as a function range.
 */
export const STOCK_LEVEL_FIELD = "stock_level_s";
export const BELOW_MINIMUM = "Below minimum";
/** The two fields the stock level compares. */
export const STOCK_LEVEL_INPUTS = { onHand: "attribute_quantity_on_hand_i", minimum: "attribute_org_min_stock_level_i" } as const;

/** The facet panel when a deployment names none: spec §3's five, then the stock level (decision 045). */
export const PANEL_FACET_FIELDS: readonly string[] = [...DEFAULT_FACET_FIELDS, STOCK_LEVEL_FIELD];

/** Every field a filter may name: the default panel first, then the other facet fields. */
export const FACET_FIELDS: readonly string[] = [
  ...PANEL_FACET_FIELDS,
  ...CATALOG_FIELDS.filter((f) => f.facet && !DEFAULT_FACET_FIELDS.includes(f.name)).map((f) => f.name),
];

/**
 * Every field sorts (core §3: a column is always sortable). A text field sorts by its whole value,
 * case-insensitively; Solr cannot sort a tokenised `_t` field, so on Fusion it sorts by the
 * index's string copy (`sortCopyOf`).
 */
export const SORTABLE_FIELDS: readonly string[] = CATALOG_FIELDS.map((f) => f.name);

/** The string copy a Solr index keeps of a text field for sorting (`item_description_t` → `item_description_s`); other fields are their own. */
export function sortCopyOf(field: string): string {
  return field.endsWith("_t") ? `${field.slice(0, -2)}_s` : field;
}

/** The fields whose matches are marked in results, on every engine. */
export const HIGHLIGHTED_FIELDS: readonly string[] = CATALOG_FIELDS.filter((f) => f.fts).map((f) => f.name);

const BY_NAME_OR_KEY = new Map<string, CatalogField>();
for (const field of CATALOG_FIELDS) BY_NAME_OR_KEY.set(field.name, field);
for (const field of CATALOG_FIELDS) if (!BY_NAME_OR_KEY.has(field.key)) BY_NAME_OR_KEY.set(field.key, field);

/** A catalogue field by its index field name or its key (`org_code` → `org_code_s`); null for others. */
export function catalogField(nameOrKey: string): CatalogField | null {
  return BY_NAME_OR_KEY.get(nameOrKey) ?? null;
}

/** The index field name of a catalogue field's key (`item_number` → `item_number_s`). */
export function catalogName(key: CatalogKey): string {
  return BY_NAME_OR_KEY.get(key)!.name;
}

/** The field that names an item: its pages, links, look-ups and the import's one required column. */
export const ITEM_NUMBER_FIELD = catalogName("item_number");

/**
 * Spec §3's labels of fields that other sources (a Fusion collection, a connector) may hold beyond
 * the catalogue's own.
 */
export const OTHER_LABELS: Readonly<Record<string, string>> = {
  price: "Price",
  association_date: "Association Date",
  record_id: "Record ID",
  last_updated_date: "Last Updated Date",
};

/** Bill-of-materials record fields (details-bom-signin §3), in table order, with their labels. */
export const BOM_FIELDS = [
  { name: "org_code", label: "Org Code" },
  { name: "item_number", label: "Item Number" },
  { name: "asset_number", label: "Asset Number" },
  { name: "asset_serial_number", label: "Asset Serial Number" },
  { name: "asset_group", label: "Asset Group" },
  { name: "asset_description", label: "Asset Description" },
  { name: "quantity", label: "Quantity" },
] as const;
export type BomField = (typeof BOM_FIELDS)[number]["name"];

/** The BOM record's type column, in exports of every type at once. */
export const BOM_TYPE_LABEL = "Type";
