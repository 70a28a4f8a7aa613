/**
 * The engine-neutral search model. Every engine (embedded SQLite, Fusion, an external backend)
 * answers in these shapes, with documents keyed by Fusion index field names so that display rules
 * are the same whichever engine served the page.
 */

import { BOM_FIELDS, type BomField } from "./catalog-fields";

export type EngineName = "embedded" | "fusion" | "backend";

export type FilterType = "include" | "exclude";

/** A filter on a facet field, named by its full index field name (`org_code_s`). */
export interface Filter {
  field: string;
  value: string;
  type: FilterType;
}

export type SortDirection = "asc" | "desc";

/** `null` sorts by relevance (score descending). */
export type Sort = { field: string; direction: SortDirection } | null;

export interface SearchRequest {
  /** Query text as the user typed it; empty means every item. */
  q: string;
  /** Search-within terms, each ANDed with the query. */
  within: string[];
  filters: Filter[];
  sort: Sort;
  start: number;
  rows: number;
  /** Index field names to count facet values for. */
  facetFields: string[];
  /** Ask for highlighted snippets. */
  highlight?: boolean;
}

export type FieldValue = string | number | boolean | null | string[];

/** A catalogue document: `id` plus index fields (`item_number_s`, `item_description_t`, …). */
export type Doc = { id: string } & Record<string, FieldValue>;

function fieldValue(value: unknown): FieldValue {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  if (Array.isArray(value)) return value.map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
  return JSON.stringify(value);
}

/** A document from an engine's JSON: the id as a string, every other value a field value (anything else as JSON). */
export function toDoc(raw: Record<string, unknown>): Doc {
  const doc: Record<string, FieldValue> = { id: String(raw.id) };
  for (const key of Object.keys(raw)) if (key !== "id") doc[key] = fieldValue(raw[key]);
  return doc as Doc;
}

export interface FacetValue {
  value: string;
  count: number;
}

/** Values an engine returns a facet at most: Solr's JSON facet limit, which the spec keeps. */
export const FACET_LIMIT = 100;

export interface FacetResult {
  field: string;
  values: FacetValue[];
}

// The highlight markers live with their splitter, which the browser loads without this module.
export { HL_POST, HL_PRE } from "./highlights";

export interface SearchResponse {
  docs: Doc[];
  total: number;
  facets: FacetResult[];
  /** Document id → field → snippets containing HL_PRE/HL_POST markers. */
  highlighting: Record<string, Record<string, string[]>>;
  /** Spell-check collations ("Did you mean …"), best first. */
  suggestions: string[];
  /** The engine's own query id, when it has one (Fusion's `x-fusion-query-id`). */
  queryId?: string;
}

/** Iterates every document matching a request in a stable order, in batches. */
export interface CursorRequest {
  q: string;
  within: string[];
  filters: Filter[];
  sort: Sort;
  batchSize: number;
  /** Stop after this many documents. */
  limit?: number;
}

export type BomType = "asset" | "pm" | "other";

/** A bill-of-materials record: one use of a component (`item_number`) in an asset or PM kit. */
export interface BomDoc {
  id: string;
  type: BomType;
  org_code: string | null;
  item_number: string;
  asset_number: string | null;
  asset_serial_number: string | null;
  asset_group: string | null;
  asset_description: string | null;
  quantity: number | null;
}

/** Every BOM record field can be sorted on. */
export const BOM_SORT_FIELDS: readonly BomField[] = BOM_FIELDS.map((f) => f.name);
export type BomSortField = BomField;

/**
 * BOM records by one of their two numbers: `itemNumber`, the records that use a component (Where
 * Used); `assetNumber`, the lines of the BOM an asset, PM kit or tool heads (the BOM pages).
 */
export type BomRequest = BomPaging & BomNumber;

export type BomNumber = { itemNumber: string; assetNumber?: never } | { assetNumber: string; itemNumber?: never };

interface BomPaging {
  /** Absent: every type. */
  type?: BomType;
  start: number;
  rows: number;
  sort?: { field: BomSortField; direction: SortDirection };
}

/** The record field a BOM request matches, and the number it must hold. */
export function bomKeyOf(request: BomRequest): { field: "item_number" | "asset_number"; value: string } {
  return request.assetNumber !== undefined ? { field: "asset_number", value: request.assetNumber } : { field: "item_number", value: request.itemNumber };
}

export interface BomResponse {
  docs: BomDoc[];
  total: number;
}

export interface EngineHealth {
  ok: boolean;
  detail?: string;
}

export interface RequestContext {
  requestId?: string;
  signal?: AbortSignal;
  /**
   * When the calls of one page must be done (epoch ms): each call to the search platform gets what
   * is left of it, so a slow platform costs a page one timeout, not one per call.
   */
  deadline?: number;
}

export interface SearchEngine {
  readonly name: EngineName;
  search(request: SearchRequest, context?: RequestContext): Promise<SearchResponse>;
  cursor(request: CursorRequest, context?: RequestContext): AsyncIterable<Doc[]>;
  /** Looks an item up by `item_number_s` or `id`; null when there is none. */
  getProduct(idOrItemNumber: string, context?: RequestContext): Promise<Doc | null>;
  bom(request: BomRequest, context?: RequestContext): Promise<BomResponse>;
  suggest(prefix: string, count: number, context?: RequestContext): Promise<string[]>;
  /**
   * Items whose item number or manufacturer part number is `text` with case, spaces and separators
   * ignored, at most `limit` (search/query/number-jump.ts). An engine without it is asked through
   * `search`, which ranks exact numbers first.
   */
  findByNumber?(text: string, limit: number, context?: RequestContext): Promise<Doc[]>;
  health(context?: RequestContext): Promise<EngineHealth>;
}
