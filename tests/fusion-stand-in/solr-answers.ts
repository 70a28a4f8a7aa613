/**
 * What the stand-in's answers are made of, as Solr writes them: request parameters, NamedLists,
 * facet and highlighting options, the query text read back, BOM documents as Fusion indexes them,
 * sort fields and cursors. Plain functions, no server.
 */
import { randomBytes } from "node:crypto";
import type { BomDoc, BomSortField, Filter } from "../../app/search/engine";
import { BOM_SORT_FIELDS, HL_POST, HL_PRE } from "../../app/search/engine";
import { ITEM_COLUMNS } from "../../app/search/engines/embedded/schema";
import { BELOW_MINIMUM, STOCK_LEVEL_FIELD } from "../../app/search/catalog-fields";
import { parseFacetFieldParam, parseFilterQuery, parseStockLevelRange, SolrSyntaxError, type SortClause } from "./solr-syntax";

export const SOLR_EXCEPTION = "org.apache.solr.common.SolrException";
const COLUMN_TYPES = new Map(ITEM_COLUMNS.map((c) => [c.name, c.type]));
/** Solr's JSON Facet API default `limit`. */
const JSON_FACET_DEFAULT_LIMIT = 10;
/** Solr's classic `facet.limit` default. */
const CLASSIC_FACET_DEFAULT_LIMIT = 100;
export const DEFAULT_ROWS = 10;

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Ten random letters and digits, like Fusion's query and request ids (`f5KGn9KPvv`). */
export function randomId(length = 10): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const byte of bytes) out += ALPHANUMERIC[byte % ALPHANUMERIC.length];
  return out;
}

export class Params {
  constructor(readonly list: [string, string][]) {}

  get(name: string): string | undefined {
    return this.list.find(([k]) => k === name)?.[1];
  }

  all(name: string): string[] {
    return this.list.filter(([k]) => k === name).map(([, v]) => v);
  }

  has(name: string): boolean {
    return this.list.some(([k]) => k === name);
  }

  /** A non-negative integer parameter, with Solr's messages for bad values. */
  int(name: string, fallback: number): number {
    const raw = this.get(name);
    if (raw === undefined || raw.trim() === "") return fallback;
    if (!/^[+-]?\d+$/.test(raw.trim())) throw new SolrSyntaxError(`For input string: "${raw}"`, "java.lang.NumberFormatException");
    const value = Number(raw);
    if (value < 0) throw new SolrSyntaxError(`'${name}' parameter cannot be negative`, SOLR_EXCEPTION);
    return value;
  }

  /** Solr's `echoParams=explicit`: one value as a string, repeated parameters as an array. */
  echo(): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of this.list) {
      const current = out[k];
      if (current === undefined) out[k] = v;
      else if (Array.isArray(current)) current.push(v);
      else out[k] = [current, v];
    }
    return out;
  }
}

export type NamedListStyle = "flat" | "map" | "arrarr" | "arrmap";

/** A Solr NamedList written with the `json.nl` style the request asked for (default `flat`). */
export function namedList(pairs: [string, unknown][], style: NamedListStyle): unknown {
  switch (style) {
    case "map":
      return Object.fromEntries(pairs);
    case "arrarr":
      return pairs.map(([k, v]) => [k, v]);
    case "arrmap":
      return pairs.map(([k, v]) => ({ [k]: v }));
    default:
      return pairs.flat();
  }
}

export function nlStyle(params: Params): NamedListStyle {
  const value = params.get("json.nl");
  return value === "map" || value === "arrarr" || value === "arrmap" ? value : "flat";
}

/**
 * Query text for the engine: `*:*` is everything; AND is an operator, not a word; the client's
 * lucene rendering of the query language (`+word`, `\-` escapes) is read back into that language
 * (`OR`, `-word` and `"phrases"` mean the same in both).
 */
export function freeText(q: string): string {
  const trimmed = q.trim();
  if (trimmed === "*:*" || trimmed === "*") return "";
  return trimmed
    .replace(/(^|\s)AND(?=\s|$)/g, "$1")
    .replace(/(^|\s)\+/g, "$1")
    .replace(/\\(.)/g, "$1")
    .trim();
}

/** Engine filters from the `fq` parameters (the two tagged shapes the client sends). */
export function filtersOf(params: Params): Filter[] {
  const filters: Filter[] = [];
  for (const fq of params.all("fq")) {
    const parsed = parseFilterQuery(fq);
    for (const value of parsed.values) filters.push({ field: parsed.field, value, type: parsed.type });
  }
  return filters;
}


export interface FacetSpec {
  key: string;
  field: string;
  limit: number;
  mincount: number;
  /** A query facet (the stock level's function range): answered with the count of this value. */
  query?: string;
}

/** `{type: "query", q: <the stock level's range>}` as a facet over the stock level's value. */
function queryFacetSpec(key: string, q: unknown): FacetSpec {
  const range = typeof q === "string" ? parseStockLevelRange(q) : null;
  if (!range || range.type !== "include") {
    throw new SolrSyntaxError(`org.apache.solr.search.SyntaxError: Unsupported query facet '${key}': the stand-in knows the stock level's range only`);
  }
  return { key, field: STOCK_LEVEL_FIELD, limit: Number.POSITIVE_INFINITY, mincount: 0, query: BELOW_MINIMUM };
}

export function jsonFacetSpecs(params: Params): FacetSpec[] {
  const raw = params.get("json.facet");
  if (raw === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new SolrSyntaxError(`org.apache.solr.search.SyntaxError: Invalid json.facet: ${(error as Error).message}`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new SolrSyntaxError("org.apache.solr.search.SyntaxError: json.facet must be a JSON object");
  }
  return Object.entries(parsed as Record<string, unknown>).map(([key, value]) => {
    const spec = value as { type?: unknown; field?: unknown; limit?: unknown; mincount?: unknown; q?: unknown } | null;
    if (spec?.type === "query") return queryFacetSpec(key, spec.q);
    if (!spec || typeof spec !== "object" || spec.type !== "terms" || typeof spec.field !== "string") {
      throw new SolrSyntaxError(`org.apache.solr.search.SyntaxError: Unsupported facet '${key}': the stand-in knows terms facets only`);
    }
    const limit = typeof spec.limit === "number" ? spec.limit : JSON_FACET_DEFAULT_LIMIT;
    const mincount = typeof spec.mincount === "number" ? spec.mincount : 1;
    return { key, field: spec.field, limit: limit < 0 ? Number.POSITIVE_INFINITY : limit, mincount };
  });
}

export function classicFacetSpecs(params: Params): FacetSpec[] {
  return params.all("facet.field").map((value) => {
    const { key, field } = parseFacetFieldParam(value);
    const limitRaw = params.get(`f.${field}.facet.limit`) ?? params.get("facet.limit");
    const mincountRaw = params.get(`f.${field}.facet.mincount`) ?? params.get("facet.mincount");
    const limit = limitRaw === undefined ? CLASSIC_FACET_DEFAULT_LIMIT : Number(limitRaw);
    return {
      key,
      field,
      limit: !Number.isFinite(limit) || limit < 0 ? Number.POSITIVE_INFINITY : limit,
      mincount: mincountRaw === undefined ? 0 : Number(mincountRaw) || 0,
    };
  });
}

/** Bucket values typed as the index field: numbers for int/float fields. */
export function bucketValue(field: string, value: string): string | number {
  const type = COLUMN_TYPES.get(field);
  if ((type === "int" || type === "float") && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return value;
}

/** The page's share of a long highlighted field: about `fragsize` characters around the first mark. */
export function fragment(text: string, fragsize: number): string {
  if (fragsize <= 0 || text.length <= fragsize) return text;
  const first = Math.max(0, text.indexOf(HL_PRE));
  let start = Math.max(0, first - Math.floor(fragsize / 4));
  if (start > 0) {
    const space = text.indexOf(" ", start);
    start = space >= 0 && space < first ? space + 1 : start;
  }
  let end = Math.min(text.length, start + fragsize);
  if (end < text.length) {
    const space = text.lastIndexOf(" ", end);
    if (space > first) end = space;
  }
  let slice = text.slice(start, end);
  // Never cut a marked run in two.
  if (slice.split(HL_PRE).length > slice.split(HL_POST).length) {
    const close = text.indexOf(HL_POST, end);
    if (close >= 0) slice = text.slice(start, close + 1);
  }
  return slice;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
}

const BOM_FIELD_NAMES: Record<BomSortField | "id" | "type", string> = {
  id: "id",
  type: "type_s",
  org_code: "org_code_s",
  item_number: "item_number_s",
  asset_number: "asset_number_s",
  asset_serial_number: "asset_serial_number_s",
  asset_group: "asset_group_s",
  asset_description: "asset_description_t",
  quantity: "quantity_i",
};

/** String copies of text fields, as a schema keeps them for sorting (Solr cannot sort on `_t`). */
const BOM_SORT_COPIES: Partial<Record<BomSortField, string>> = { asset_description: "asset_description_s" };

/** A BOM record as an index would hold it: suffixed field names, absent values left out. */
export function bomIndexDoc(bom: BomDoc): Record<string, string | number> {
  const doc: Record<string, string | number> = {};
  for (const [key, name] of Object.entries(BOM_FIELD_NAMES)) {
    const value = bom[key as keyof BomDoc];
    if (value === null || value === undefined) continue;
    // A fractional quantity cannot live in an `_i` field.
    if (key === "quantity" && typeof value === "number" && !Number.isInteger(value)) doc.quantity_d = value;
    else doc[name] = value;
    const copy = BOM_SORT_COPIES[key as BomSortField];
    if (copy) doc[copy] = value;
  }
  return doc;
}

/**
 * A catalogue sort field as a Solr schema takes it: a text field (`item_description_t`) is Solr's
 * cannot-sort error; its string copy (`item_description_s`) sorts by the text's whole value.
 */
export function partSortField(name: string): string {
  if (name.endsWith("_t") && COLUMN_TYPES.get(name) === "text") {
    throw new SolrSyntaxError(`can not sort on a field w/o docValues unless it is indexed=true uninvertible=true and the type supports Uninversion: ${name}`, SOLR_EXCEPTION);
  }
  const text = name.endsWith("_s") ? `${name.slice(0, -2)}_t` : null;
  return text && !COLUMN_TYPES.has(name) && COLUMN_TYPES.get(text) === "text" ? text : name;
}

/**
 * `asset_number_s` or `asset_number` → `asset_number`; a text field (`asset_description_t`) is
 * Solr's cannot-sort error, and anything else its unknown-field error.
 */
export function bomSortField(name: string): BomSortField {
  if ((BOM_SORT_FIELDS as readonly string[]).includes(name)) return name as BomSortField;
  for (const field of BOM_SORT_FIELDS) {
    if ((BOM_FIELD_NAMES[field] === name && !name.endsWith("_t")) || BOM_SORT_COPIES[field] === name) return field;
  }
  if (name.endsWith("_t")) {
    throw new SolrSyntaxError(`can not sort on a field w/o docValues unless it is indexed=true uninvertible=true and the type supports Uninversion: ${name}`, SOLR_EXCEPTION);
  }
  throw new SolrSyntaxError(`sort param field can't be found: ${name}`, SOLR_EXCEPTION);
}

// ---------------------------------------------------------------------------------------------
// Cursor marks: opaque to clients, a position plus the sort they belong to.

interface CursorState {
  position: number;
  sort: string;
}

export function sortKey(clauses: SortClause[]): string {
  return clauses.map((c) => `${c.field} ${c.direction}`).join(",");
}

export function encodeCursor(state: CursorState): string {
  return `AoE${Buffer.from(JSON.stringify({ p: state.position, s: state.sort }), "utf8").toString("base64url")}`;
}

export function decodeCursor(mark: string, clauses: SortClause[]): number {
  if (mark === "*") return 0;
  const bad = () =>
    new SolrSyntaxError(
      `Unable to parse 'cursorMark' after totem: value must either be '*' or the 'nextCursorMark' returned by a previous search: ${mark}`,
      SOLR_EXCEPTION,
    );
  if (!mark.startsWith("AoE")) throw bad();
  let state: { p?: unknown; s?: unknown };
  try {
    state = JSON.parse(Buffer.from(mark.slice(3), "base64url").toString("utf8")) as { p?: unknown; s?: unknown };
  } catch {
    throw bad();
  }
  if (typeof state.p !== "number" || !Number.isInteger(state.p) || state.p < 0 || typeof state.s !== "string") throw bad();
  if (state.s !== sortKey(clauses)) {
    throw new SolrSyntaxError(`cursorMark does not work with current sort (wrong size): ${mark}`, SOLR_EXCEPTION);
  }
  return state.p;
}
