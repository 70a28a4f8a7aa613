import { PANEL_FACET_FIELDS, DISPLAY_ORDER, FACET_FIELDS, RESULT_COLUMNS, SORTABLE_FIELDS } from "./catalog-fields";

/**
 * Which fields the search page facets, shows and sorts on: the field registry's (catalog-fields.ts),
 * with a deployment's own facet panel and display order. Fields are named by their index field
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

// Shared by every request and the browser bundle: a caller that mutates it would change it for all.
const frozen = (list: readonly string[]): string[] => Object.freeze([...list]) as string[];

export const DEFAULT_SEARCH_CONFIG: SearchConfig = Object.freeze({
  facetFields: frozen(PANEL_FACET_FIELDS),
  allFacetFields: frozen(ALL_FACET_FIELDS),
  displayOrder: frozen(DISPLAY_ORDER),
  resultFields: frozen(RESULT_COLUMNS),
  sortFields: frozen(SORTABLE_FIELDS),
});

/** The spec's configuration with a deployment's facet panel and display order (FACET_FIELDS, FIELD_DISPLAY_ORDER). */
export function searchConfigWith(settings: { facetFields?: string[]; displayOrder?: string[] }): SearchConfig {
  if (!settings.facetFields && !settings.displayOrder) return DEFAULT_SEARCH_CONFIG;
  return Object.freeze({
    ...DEFAULT_SEARCH_CONFIG,
    facetFields: frozen(settings.facetFields ?? PANEL_FACET_FIELDS),
    displayOrder: frozen(settings.displayOrder ?? DISPLAY_ORDER),
  });
}
