import { DEFAULT_FACET_FIELDS, FACET_FIELDS, SORTABLE_FIELDS } from "./catalog-fields";

/**
 * Which fields the search page facets, shows and sorts on. Fields are named by their index field
 * names (`category_s`) except `displayOrder` and `resultFields`, which hold item field keys
 * (`category`), because display rules apply to a field whatever suffix the engine gives it.
 */
export interface SearchConfig {
  /** Facets shown in the panel, in order. */
  facetFields: string[];
  /** Every field a filter may name (spec §3 "Facet fields"). */
  allFacetFields: string[];
  /** Item field keys in display order (spec §3). */
  displayOrder: string[];
  /** Item field keys of the result list; `id` is implied and hidden in tables. */
  resultFields: string[];
  /** Fields a `sort` parameter may name; anything else sorts by relevance. */
  sortFields: string[];
}

/** Every field a filter may name (spec §3 "Facet fields"). */
export const ALL_FACET_FIELDS: readonly string[] = FACET_FIELDS;

const DISPLAY_ORDER = [
  "org_code",
  "item_number",
  "item_description",
  "status",
  "stock_locator",
  "subinventory",
  "quantity_on_hand",
  "quantity_on_order",
  "item_type",
  "manufacturer",
  "manufacturer_part_number",
  "alternate_manufacturer_part_number",
  "org_max_stock_level",
  "org_min_stock_level",
  "subinventory_max_stock_level",
  "subinventory_min_stock_level",
  "lead_time",
  "list_price",
  "unit_cost",
  "bpa_price",
  "issue_uom",
  "order_uom",
  "conversion_rate",
  "flm",
  "bpa_number",
  "bpa_line_number",
  "supplier",
  "supplier_site",
  "supplier_part_number",
  "category",
  "org_notes",
  "abc_class_name",
  "fims_number",
  "creation_date",
  "purchasable",
  "costing_enabled",
  "inventory_valued",
  "planning_method",
  "min_max_category",
  "cycle_count_flag",
  "on_cycle_count",
  "cmpn",
  "acmpn",
  "image_urls",
  "other_attachments",
  "primary_image_url",
];

const RESULT_FIELDS = [
  "item_number",
  "item_description",
  "manufacturer",
  "manufacturer_part_number",
  "category",
  "status",
  "quantity_on_hand",
];

// Shared by every request and the browser bundle: a caller that mutates it would change it for all.
const frozen = (list: string[]): string[] => Object.freeze([...list]) as string[];

export const DEFAULT_SEARCH_CONFIG: SearchConfig = Object.freeze({
  facetFields: frozen([...DEFAULT_FACET_FIELDS]),
  allFacetFields: frozen([...ALL_FACET_FIELDS]),
  displayOrder: frozen(DISPLAY_ORDER),
  resultFields: frozen(RESULT_FIELDS),
  sortFields: frozen([...SORTABLE_FIELDS]),
});

/** The spec's configuration with a deployment's facet panel and display order (FACET_FIELDS, FIELD_DISPLAY_ORDER). */
export function searchConfigWith(settings: { facetFields?: string[]; displayOrder?: string[] }): SearchConfig {
  if (!settings.facetFields && !settings.displayOrder) return DEFAULT_SEARCH_CONFIG;
  return Object.freeze({
    ...DEFAULT_SEARCH_CONFIG,
    facetFields: frozen(settings.facetFields ?? [...DEFAULT_FACET_FIELDS]),
    displayOrder: frozen(settings.displayOrder ?? DISPLAY_ORDER),
  });
}
