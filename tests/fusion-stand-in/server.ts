/**
 * A Lucidworks Fusion stand-in for tests and local work: answers the query-profile requests the
 * portal's Fusion client sends (docs/fusion-api.md §1.2, §1.5, §4), by default from recorded
 * documents with an index of its own (recorded.ts), so the portal is never checked against its own
 * engine; for local work and benchmarks, from a sample catalogue (`catalogPath`). It can be told
 * to misbehave (latency, error statuses, malformed JSON, connection resets, hangs) through
 * `setFault`, and to keep connections the way other servers do (`setHabits`: closing after every
 * answer, short idle times, chunked or gzip bodies, slow or broken bodies), also through the
 * `/__control` HTTP API.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { Socket } from "node:net";
import zlib from "node:zlib";
import type { BomDoc, BomRequest, BomSortField, Doc, FieldValue, Filter, Sort } from "../../app/search/engine";
import { BOM_SORT_FIELDS, HL_POST, HL_PRE } from "../../app/search/engine";
import { EmbeddedEngine } from "../../app/search/engines/embedded/embedded-engine.server";
import { filterMatches, RecordedIndex, valuesOf, type RecordedAnswer, type RecordedSearch } from "./recorded";
import { ITEM_COLUMNS } from "../../app/search/engines/embedded/schema";
import {
  parseFacetFieldParam,
  parseFilterQuery,
  parseBomNumberFilter,
  parseProductQuery,
  parseSort,
  parseStockLevelRange,
  SolrSyntaxError,
  type SortClause,
} from "./solr-syntax";
import { BELOW_MINIMUM, STOCK_LEVEL_FIELD } from "../../app/search/catalog-fields";
import { check, VocabularyCache, type Vocabulary } from "./spellcheck";

export interface StandInOptions {
  /** 0 = a random free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** A sample catalogue to answer from; absent, the recorded documents (recorded/*.json) answer. */
  catalogPath?: string;
  /** How connections and bodies are handled (default: kept alive, Content-Length, identity). */
  habits?: Habits;
  /** Default "parts". */
  app?: string;
  /** Default = app. */
  queryProfile?: string;
  /** Default "ge-appliances-boms". */
  bomProfile?: string;
  /** Default "asset-boms". */
  assetBomProfile?: string;
  /** When set, `/api/…` requests without header `x-api-key` equal to it get 401. */
  apiKey?: string;
}

export type Fault =
  | { kind: "none" }
  | { kind: "latency"; ms: number }
  /** Every answer leaves exactly `ms` after its request arrived, the stand-in's own work included. */
  | { kind: "fixed"; ms: number }
  | { kind: "status"; status: number; body?: string }
  | { kind: "malformed" }
  | { kind: "reset" }
  | { kind: "hang" };

/**
 * How the stand-in keeps connections and sends bodies, as real servers and proxies do:
 * - `connection`: `keep-alive` (Node's default); `close-after-answer` closes the connection after
 *   each answer without saying so (an HTTP/1.0-style server, a proxy with a short idle time): a
 *   moment after the answer (CLOSE_LAG_MS) the connection is ended, and a request that reaches it
 *   in between is dropped unanswered, as when the close crosses the client's next request on the
 *   wire; `close-header` says `Connection: close` and closes.
 * - `idleCloseMs`: a kept connection is closed after this long unused (shorter than a client's).
 * - `chunked`: no Content-Length, the body in chunks; `gzip`: compressed when the client accepts it.
 * - `slowBodyMs`: half the body, a pause of that long, the rest; `resetMidBody`: half the body,
 *   then the connection is reset.
 */
/** How long after its answer a `close-after-answer` connection is ended. */
const CLOSE_LAG_MS = 50;

export interface Habits {
  connection?: "keep-alive" | "close-after-answer" | "close-header";
  idleCloseMs?: number;
  chunked?: boolean;
  gzip?: boolean;
  slowBodyMs?: number;
  resetMidBody?: boolean;
}

function validHabits(value: unknown): Habits | null {
  if (!value || typeof value !== "object") return null;
  const h = value as Record<string, unknown>;
  const known = new Set(["connection", "idleCloseMs", "chunked", "gzip", "slowBodyMs", "resetMidBody"]);
  if (Object.keys(h).some((k) => !known.has(k))) return null;
  if (h.connection !== undefined && !["keep-alive", "close-after-answer", "close-header"].includes(h.connection as string)) return null;
  for (const key of ["idleCloseMs", "slowBodyMs"]) {
    if (h[key] !== undefined && (typeof h[key] !== "number" || !Number.isInteger(h[key]) || (h[key] as number) < 0)) return null;
  }
  for (const key of ["chunked", "gzip", "resetMidBody"]) if (h[key] !== undefined && typeof h[key] !== "boolean") return null;
  return h as Habits;
}

/** Where the answers come from: the recorded documents, or a sample catalogue. Queries arrive as the lucene text the portal sent. */
interface StandInData {
  search(request: RecordedSearch): Promise<RecordedAnswer>;
  getProduct(idOrItemNumber: string): Promise<Doc | null>;
  suggest(prefix: string, count: number): Promise<string[]>;
  bom(request: BomRequest): Promise<{ docs: BomDoc[]; total: number }>;
  vocabulary(): Vocabulary;
  close(): void;
}

function recordedData(): StandInData {
  const index = new RecordedIndex();
  return {
    search: async (request) => index.search(request),
    getProduct: async (id) => index.getProduct(id),
    suggest: async (prefix, count) => index.suggest(prefix, count),
    bom: async (request) => index.bom(request),
    vocabulary: () => index.vocabulary,
    close: () => undefined,
  };
}

/** A sample catalogue through the embedded engine, which reads the query language the lucene text is turned back into. */
function catalogueData(catalogPath: string): StandInData {
  const engine = new EmbeddedEngine(catalogPath);
  engine.open(); // fail now, not on the first request, when the catalogue is missing
  const vocabulary = new VocabularyCache(catalogPath);
  return {
    async search(request) {
      const result = await engine.search({ ...request, q: freeText(request.q), within: [] });
      return { ...result, facets: new Map(result.facets.map((f) => [f.field, f.values])) };
    },
    getProduct: (id) => engine.getProduct(id),
    suggest: (prefix, count) => engine.suggest(prefix, count),
    bom: (request) => engine.bom(request),
    vocabulary: () => vocabulary.get(),
    close: () => engine.close(),
  };
}

export interface RecordedRequest {
  method: string;
  path: string;
  params: [string, string][];
  headers: Record<string, string>;
  at: number;
}

export interface StandIn {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** What arrived at `POST /api/signals/{collection}` (also `GET /__control/signals`). */
  signals: { collection: string; signal: unknown }[];
  setFault(fault: Fault): void;
  setHabits(habits: Habits): void;
  clearRequests(): void;
  close(): Promise<void>;
}

/** Oldest recorded requests are dropped past this, so a long-running dev server stays small. */
export const MAX_RECORDED_REQUESTS = 10_000;
const JSON_TYPE = "application/json;charset=UTF-8";
const SOLR_EXCEPTION = "org.apache.solr.common.SolrException";
const COLUMN_TYPES = new Map(ITEM_COLUMNS.map((c) => [c.name, c.type]));
/** Solr's JSON Facet API default `limit`. */
const JSON_FACET_DEFAULT_LIMIT = 10;
/** Solr's classic `facet.limit` default. */
const CLASSIC_FACET_DEFAULT_LIMIT = 100;
const DEFAULT_ROWS = 10;
const STATUS_TEXT: Record<number, string> = { 401: "Unauthorized", 403: "Forbidden", 404: "Not Found" };
/** A body cut off mid-document, for the `malformed` fault. */
const TRUNCATED_BODY = '{"responseHeader":{"status":0,"QTime":1},"response":{"numFound":3,"start":0,"docs":[{"id":"ITEM-0000001","item_description_t":"Washer Ti';

// ---------------------------------------------------------------------------------------------
// Small helpers

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Ten random letters and digits, like Fusion's query and request ids (`f5KGn9KPvv`). */
export function randomId(length = 10): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const byte of bytes) out += ALPHANUMERIC[byte % ALPHANUMERIC.length];
  return out;
}

class Params {
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

type NamedListStyle = "flat" | "map" | "arrarr" | "arrmap";

/** A Solr NamedList written with the `json.nl` style the request asked for (default `flat`). */
function namedList(pairs: [string, unknown][], style: NamedListStyle): unknown {
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

function nlStyle(params: Params): NamedListStyle {
  const value = params.get("json.nl");
  return value === "map" || value === "arrarr" || value === "arrmap" ? value : "flat";
}

function sleep(ms: number, timers: Set<NodeJS.Timeout>): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      resolve();
    }, ms);
    timers.add(timer);
  });
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function validFault(value: unknown): Fault | null {
  if (!value || typeof value !== "object") return null;
  const f = value as Record<string, unknown>;
  switch (f.kind) {
    case "none":
    case "malformed":
    case "reset":
    case "hang":
      return { kind: f.kind };
    case "latency":
    case "fixed":
      return typeof f.ms === "number" && Number.isFinite(f.ms) && f.ms >= 0 ? { kind: f.kind, ms: f.ms } : null;
    case "status":
      if (typeof f.status !== "number" || !Number.isInteger(f.status) || f.status < 200 || f.status > 599) return null;
      if (f.body !== undefined && typeof f.body !== "string") return null;
      return f.body === undefined ? { kind: "status", status: f.status } : { kind: "status", status: f.status, body: f.body };
    default:
      return null;
  }
}

/**
 * Query text for the engine: `*:*` is everything; AND is an operator, not a word; the client's
 * lucene rendering of the query language (`+word`, `\-` escapes) is read back into that language
 * (`OR`, `-word` and `"phrases"` mean the same in both).
 */
function freeText(q: string): string {
  const trimmed = q.trim();
  if (trimmed === "*:*" || trimmed === "*") return "";
  return trimmed
    .replace(/(^|\s)AND(?=\s|$)/g, "$1")
    .replace(/(^|\s)\+/g, "$1")
    .replace(/\\(.)/g, "$1")
    .trim();
}

/** Engine filters from the `fq` parameters (the two tagged shapes the client sends). */
function filtersOf(params: Params): Filter[] {
  const filters: Filter[] = [];
  for (const fq of params.all("fq")) {
    const parsed = parseFilterQuery(fq);
    for (const value of parsed.values) filters.push({ field: parsed.field, value, type: parsed.type });
  }
  return filters;
}


interface FacetSpec {
  key: string;
  field: string;
  limit: number;
  mincount: number;
  /** A query facet (the stock level's function range): answered with the count of its value. */
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

function jsonFacetSpecs(params: Params): FacetSpec[] {
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

function classicFacetSpecs(params: Params): FacetSpec[] {
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
function bucketValue(field: string, value: string): string | number {
  const type = COLUMN_TYPES.get(field);
  if ((type === "int" || type === "float") && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return value;
}

/** The page's share of a long highlighted field: about `fragsize` characters around the first mark. */
function fragment(text: string, fragsize: number): string {
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

function escapeHtml(text: string): string {
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
function partSortField(name: string): string {
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
function bomSortField(name: string): BomSortField {
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

function sortKey(clauses: SortClause[]): string {
  return clauses.map((c) => `${c.field} ${c.direction}`).join(",");
}

export function encodeCursor(state: CursorState): string {
  return `AoE${Buffer.from(JSON.stringify({ p: state.position, s: state.sort }), "utf8").toString("base64url")}`;
}

function decodeCursor(mark: string, clauses: SortClause[]): number {
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

// ---------------------------------------------------------------------------------------------
// The server

interface Context {
  params: Params;
  started: number;
  queryId: string;
  app: string;
  profile: string;
}

export async function startStandIn(options: StandInOptions): Promise<StandIn> {
  const app = options.app ?? "parts";
  const queryProfile = options.queryProfile ?? app;
  const bomProfile = options.bomProfile ?? "ge-appliances-boms";
  const assetBomProfile = options.assetBomProfile ?? "asset-boms";
  const data = options.catalogPath ? catalogueData(options.catalogPath) : recordedData();
  let habits: Habits = validHabits(options.habits ?? {}) ?? {};

  let fault: Fault = { kind: "none" };
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let closing: Promise<void> | undefined;

  const record = (entry: RecordedRequest) => {
    requests.push(entry);
    if (requests.length > MAX_RECORDED_REQUESTS) requests.splice(0, requests.length - MAX_RECORDED_REQUESTS);
  };

  const header = (ctx: Context) => ({
    zkConnected: true,
    status: 0,
    QTime: Date.now() - ctx.started,
    params: { ...ctx.params.echo(), isFusionQuery: "true", fusionQueryId: ctx.queryId, "lw.pipelineId": ctx.profile, context: `app:${ctx.app}` },
    totalTime: Date.now() - ctx.started,
  });

  // -- query profile ---------------------------------------------------------------------------

  async function totalFor(q: string, filters: Filter[]): Promise<number> {
    return (await data.search({ q, filters, sort: null, start: 0, rows: 0, facetFields: [], highlight: false })).total;
  }

  async function query(ctx: Context): Promise<unknown> {
    const { params } = ctx;
    const q = params.get("q") ?? "*:*";
    const start = params.int("start", 0);
    const rows = params.int("rows", DEFAULT_ROWS);
    const sortParam = params.get("sort");
    const clauses = sortParam !== undefined && sortParam.trim() !== "" ? parseSort(sortParam) : [];
    const cursorMark = params.get("cursorMark");
    let position = start;
    if (cursorMark !== undefined) {
      if (!clauses.some((c) => c.field === "id")) {
        throw new SolrSyntaxError("Cursor functionality requires a sort containing a uniqueKey field tie breaker", SOLR_EXCEPTION);
      }
      if (start !== 0) throw new SolrSyntaxError("Cursor functionality requires start=0", SOLR_EXCEPTION);
      position = decodeCursor(cursorMark, clauses);
    }
    const first = clauses[0];
    const sort: Sort = !first || first.field === "score" ? null : { field: partSortField(first.field), direction: first.direction };
    const filters = filtersOf(params);
    const jsonFacets = jsonFacetSpecs(params);
    const classicFacets = classicFacetSpecs(params);
    const facetFields = [...new Set([...jsonFacets, ...classicFacets].map((f) => f.field))];
    const highlight = params.get("hl") === "true" || params.get("hl") === "on";

    // The product lookup form, or free text.
    const product = parseProductQuery(q);
    let docs: Doc[];
    let total: number;
    let facetValues: Map<string, { value: string; count: number }[]>;
    let highlighting: Record<string, Record<string, string[]>> = {};
    const text = product ? "" : freeText(q);
    if (product) {
      const found: Doc[] = [];
      const byItem = await data.getProduct(product.itemNumber);
      // The catalogue matches item numbers case-insensitively; a Solr string field does not.
      if (byItem && (byItem.item_number_s === product.itemNumber || byItem.id === product.itemNumber)) found.push(byItem);
      if (product.id !== product.itemNumber) {
        const byId = await data.getProduct(product.id);
        if (byId && byId.id === product.id && !found.some((d) => d.id === byId.id)) found.push(byId);
      }
      const matching = found.filter((d) => filterMatches(d, filters));
      total = matching.length;
      docs = matching.slice(position, position + rows);
      facetValues = new Map(
        facetFields.map((field) => {
          const counts = new Map<string, number>();
          for (const doc of matching) {
            for (const v of valuesOf(doc, field)) counts.set(v, (counts.get(v) ?? 0) + 1);
          }
          return [field, [...counts].map(([value, count]) => ({ value, count }))];
        }),
      );
    } else {
      const result = await data.search({ q: text === "" ? "*:*" : q, filters, sort, start: position, rows, facetFields, highlight });
      docs = result.docs;
      total = result.total;
      facetValues = result.facets;
      highlighting = result.highlighting;
    }

    // fl and score
    const fl = (params.get("fl") ?? "*").split(/[\s,]+/).filter(Boolean);
    const wantScore = fl.includes("score");
    const allFields = fl.includes("*");
    const relevance = sort === null && text !== "";
    const scoreAt = (i: number) => (relevance ? Math.round((1 + (10 * (total - (position + i))) / Math.max(1, total)) * 1e4) / 1e4 : 1);
    const outDocs = docs.map((doc, i) => {
      const out: Record<string, FieldValue> = {};
      for (const [k, v] of Object.entries(doc)) if (allFields || fl.includes(k)) out[k] = v;
      if (wantScore) out.score = scoreAt(i);
      return out;
    });

    const body: Record<string, unknown> = {
      responseHeader: header(ctx),
      response: {
        numFound: total,
        start: cursorMark !== undefined ? 0 : start,
        numFoundExact: true,
        ...(wantScore ? { maxScore: docs.length > 0 ? scoreAt(0) : 0 } : {}),
        docs: outDocs,
      },
    };

    const style = nlStyle(params);
    if (classicFacets.length > 0) {
      const facetFieldsOut: Record<string, unknown> = {};
      for (const spec of classicFacets) {
        const values = (facetValues.get(spec.field) ?? []).filter((v) => v.count >= spec.mincount).slice(0, spec.limit);
        facetFieldsOut[spec.key] = namedList(values.map((v) => [v.value, v.count]), style);
      }
      body.facet_counts = { facet_queries: {}, facet_fields: facetFieldsOut, facet_ranges: {}, facet_intervals: {}, facet_heatmaps: {} };
    }
    if (jsonFacets.length > 0) {
      const facets: Record<string, unknown> = { count: total };
      for (const spec of jsonFacets) {
        const values = (facetValues.get(spec.field) ?? []).filter((v) => v.count >= spec.mincount).slice(0, spec.limit);
        if (spec.query !== undefined) facets[spec.key] = { count: values.find((v) => v.value === spec.query)?.count ?? 0 };
        else facets[spec.key] = { buckets: values.map((v) => ({ val: bucketValue(spec.field, v.value), count: v.count })) };
      }
      body.facets = facets;
    }

    if (highlight) {
      const hlFl = (params.get("hl.fl") ?? "*").split(/[\s,]+/).filter(Boolean);
      const anyField = hlFl.length === 0 || hlFl.includes("*");
      const pre = params.get("hl.tag.pre") ?? params.get("hl.simple.pre") ?? "<em>";
      const post = params.get("hl.tag.post") ?? params.get("hl.simple.post") ?? "</em>";
      const fragsize = Number(params.get("hl.fragsize") ?? 100);
      const html = params.get("hl.encoder") === "html";
      const out: Record<string, Record<string, string[]>> = {};
      for (const doc of docs) {
        const fields: Record<string, string[]> = {};
        for (const [field, snippets] of Object.entries(highlighting[doc.id] ?? {})) {
          if (!anyField && !hlFl.includes(field)) continue;
          fields[field] = snippets.map((s) => {
            const cut = fragment(s, Number.isFinite(fragsize) ? fragsize : 100);
            const safe = html ? escapeHtml(cut) : cut;
            return safe.replaceAll(HL_PRE, pre).replaceAll(HL_POST, post);
          });
        }
        out[doc.id] = fields;
      }
      body.highlighting = out;
    }

    if (params.get("spellcheck") === "true" || params.get("spellcheck") === "on") {
      body.spellcheck = await spellcheck(params, product ? "" : (params.get("spellcheck.q") ?? q), total, filters, style);
    }

    if (cursorMark !== undefined) {
      body.nextCursorMark = docs.length === 0 ? cursorMark : encodeCursor({ position: position + docs.length, sort: sortKey(clauses) });
    }
    return body;
  }

  async function spellcheck(params: Params, text: string, numFound: number, filters: Filter[], style: NamedListStyle) {
    const nothing = { suggestions: namedList([], style), correctlySpelled: true, collations: namedList([], style) };
    if (numFound > 0 || freeText(text) === "") return nothing;
    const count = Math.max(1, Number(params.get("spellcheck.count") ?? 1) || 1);
    const { misspellings, collation } = await check(text, data.vocabulary(), async (word) => (await totalFor(word, [])) > 0, count);
    const suggested = misspellings.filter((m) => m.suggestions.length > 0);
    if (suggested.length === 0) return nothing;
    const suggestions = namedList(
      suggested.map((m) => [
        m.original,
        {
          numFound: m.suggestions.length,
          startOffset: m.startOffset,
          endOffset: m.endOffset,
          origFreq: 0,
          suggestion: m.suggestions.map((s) => ({ word: s.word, freq: s.freq })),
        },
      ]),
      style,
    );
    const collations: [string, unknown][] = [];
    if (collation !== null) {
      const hits = await totalFor(collation, filters);
      // Like Solr with maxCollationTries > 0: a collation that finds nothing is not offered.
      if (hits > 0) {
        const extended = params.get("spellcheck.collateExtendedResults") !== "false";
        collations.push([
          "collation",
          extended
            ? {
                collationQuery: collation,
                hits,
                misspellingsAndCorrections: namedList(
                  suggested.map((m) => [m.original, m.suggestions[0]!.word]),
                  style,
                ),
              }
            : collation,
        ]);
      }
    }
    return { suggestions, correctlySpelled: false, collations: namedList(collations, style) };
  }

  // -- suggest ---------------------------------------------------------------------------------

  async function suggest(ctx: Context): Promise<unknown> {
    const { params } = ctx;
    const responseHeader = { status: 0, QTime: Date.now() - ctx.started };
    if (params.get("suggest") !== "true") return { responseHeader };
    const prefix = params.get("suggest.q") ?? params.get("q");
    if (prefix === undefined) throw new SolrSyntaxError("The suggest.q parameter is required", SOLR_EXCEPTION);
    const count = params.int("suggest.count", 1);
    const terms = await data.suggest(prefix, count);
    const entry = { numFound: terms.length, suggestions: terms.map((term) => ({ term, weight: 0, payload: "" })) };
    const dictionaries = params.all("suggest.dictionary");
    const suggestions: Record<string, unknown> = {};
    for (const name of dictionaries.length > 0 ? dictionaries : ["default"]) suggestions[name] = { [prefix]: entry };
    return { responseHeader, suggest: suggestions };
  }

  // -- BOM profiles ----------------------------------------------------------------------------

  function bomPaging(params: Params): Pick<BomRequest, "start" | "rows" | "sort"> {
    const start = params.int("start", 0);
    const rows = params.int("rows", DEFAULT_ROWS);
    const sortParam = params.get("sort");
    const first = sortParam && sortParam.trim() !== "" ? parseSort(sortParam)[0] : undefined;
    const sort = first && first.field !== "score" ? { field: bomSortField(first.field), direction: first.direction } : undefined;
    return { start, rows, ...(sort ? { sort } : {}) };
  }

  async function bomAnswer(ctx: Context, request: BomRequest | null, start: number): Promise<unknown> {
    const result = request ? await data.bom(request) : { docs: [], total: 0 };
    return { responseHeader: header(ctx), response: { numFound: result.total, start, docs: result.docs.map(bomIndexDoc) } };
  }

  async function bom(ctx: Context): Promise<unknown> {
    const { params } = ctx;
    const paging = bomPaging(params);
    const itemNumber = params.get("itemNumber");
    const type = params.get("type");
    const validType = type === undefined || type === "" || type === "asset" || type === "pm" || type === "other";
    // Components by the profile's `itemNumber`; a BOM's lines by a filter on the number heading them.
    const key = itemNumber ? { itemNumber } : numberFilterOf(params);
    if (!key || !validType) return bomAnswer(ctx, null, paging.start);
    return bomAnswer(ctx, { ...key, ...(type ? { type: type as BomRequest["type"] } : {}), ...paging }, paging.start);
  }

  async function assetBom(ctx: Context): Promise<unknown> {
    const { params } = ctx;
    const paging = bomPaging(params);
    const key = numberFilterOf(params);
    return bomAnswer(ctx, key && { ...key, type: "asset", ...paging }, paging.start);
  }

  /**
   * The one number the `fq` filters ask for, as a request key; null for no filter, or for filters
   * on different numbers (AND-ed, they match nothing).
   */
  function numberFilterOf(params: Params): { itemNumber: string } | { assetNumber: string } | null {
    const keys = [...new Map(params.all("fq").map(parseBomNumberFilter).map((k) => [`${k.field}:${k.value}`, k])).values()];
    if (keys.length !== 1) return null;
    const { field, value } = keys[0]!;
    return field === "item_number" ? { itemNumber: value } : { assetNumber: value };
  }

  // -- HTTP --------------------------------------------------------------------------------------

  /** Answer times of requests under the `fixed` fault, and the answers it repeats. */
  const sendAt = new WeakMap<http.ServerResponse, number>();
  const fixedAnswers = new Map<string, string>();

  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (res.headersSent || res.destroyed) return;
    const at = sendAt.get(res);
    const early = at === undefined ? 0 : at - performance.now();
    if (early > 0) {
      // A timer never fires early but up to a millisecond and a half late; that lateness is
      // counted against the portal. Waiting out the last stretch by spinning the event loop would
      // be more exact, but would take CPU time away from the portal on the same machine.
      const timer = setTimeout(() => {
        timers.delete(timer);
        send(res, status, body, headers);
      }, Math.ceil(early));
      timers.add(timer);
      return;
    }
    const text = typeof body === "string" ? body : JSON.stringify(body);
    if (controlAnswers.has(res)) {
      res.writeHead(status, { "Content-Type": JSON_TYPE, "Content-Length": Buffer.byteLength(text), ...headers });
      res.end(text);
      return;
    }
    answerWithHabits(res, status, Buffer.from(text), headers);
  };

  /** An answer sent the way the current habits say (see Habits). */
  const answerWithHabits = (res: http.ServerResponse, status: number, text: Buffer, headers: Record<string, string>) => {
    const current = habits;
    let payload = text;
    const head: Record<string, string | number> = { "Content-Type": JSON_TYPE, ...headers };
    if (current.gzip && payload.length > 0 && /\bgzip\b/.test(String(res.req.headers["accept-encoding"] ?? ""))) {
      payload = zlib.gzipSync(payload);
      head["Content-Encoding"] = "gzip";
    }
    if (!current.chunked) head["Content-Length"] = payload.length;
    if (current.connection === "close-header") head.Connection = "close";
    if (current.connection === "close-after-answer" && res.socket) {
      // The response lets go of its socket when it finishes: keep hold of it to close it then.
      const socket = res.socket;
      answeredSockets.add(socket);
      res.once("finish", () => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          socket.end();
        }, CLOSE_LAG_MS);
        timers.add(timer);
      });
    }
    res.writeHead(status, head);
    if (!current.slowBodyMs && !current.resetMidBody && !current.chunked) return void res.end(payload);
    const half = Math.floor(payload.length / 2);
    res.write(payload.subarray(0, half));
    if (current.resetMidBody) {
      const socket = res.socket;
      if (socket && typeof socket.resetAndDestroy === "function") socket.resetAndDestroy();
      else socket?.destroy();
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!res.destroyed) res.end(payload.subarray(half));
    }, current.slowBodyMs ?? 0);
    timers.add(timer);
  };

  /** The control API's own answers are sent plainly, whatever the habits. */
  const controlAnswers = new WeakSet<http.ServerResponse>();

  const errorBody = (status: number, msg: string) => ({ error: { msg, code: status } });

  /** Signals received through the Signals API, in order of arrival (a resent one appears twice). */
  const receivedSignals: { collection: string; signal: unknown }[] = [];

  async function control(req: http.IncomingMessage, res: http.ServerResponse, path: string): Promise<void> {
    controlAnswers.add(res);
    /** A setting sent as JSON: read, checked by `valid`, then applied; 400 with `what` when it is not one. */
    const setting = async <T>(valid: (value: unknown) => T | null, what: string, apply: (value: T) => unknown) => {
      let value: unknown;
      try {
        value = JSON.parse(await readBody(req));
      } catch {
        return send(res, 400, errorBody(400, `Body must be JSON: ${what}`));
      }
      const parsed = valid(value);
      if (!parsed) return send(res, 400, errorBody(400, `Not ${what}`));
      return send(res, 200, apply(parsed));
    };
    if (path === "/__control/habits" && req.method === "POST") {
      return setting(validHabits, "habits: expected {connection, idleCloseMs, chunked, gzip, slowBodyMs, resetMidBody}", (next) => {
        applyHabits(next);
        return { habits };
      });
    }
    if (path === "/__control/habits" && req.method === "GET") return send(res, 200, { habits });
    if (path === "/__control/fault" && req.method === "POST") {
      return setting(validFault, "a fault: expected {kind: none|latency|status|malformed|reset|hang, …}", (next) => {
        fault = next;
        fixedAnswers.clear();
        return { fault };
      });
    }
    if (path === "/__control/fault" && req.method === "GET") return send(res, 200, { fault });
    if (path === "/__control/requests" && req.method === "GET") return send(res, 200, requests);
    if (path === "/__control/signals" && req.method === "GET") return send(res, 200, receivedSignals);
    if (path === "/__control/requests" && req.method === "DELETE") {
      const cleared = requests.length;
      requests.length = 0;
      return send(res, 200, { cleared });
    }
    return send(res, 404, errorBody(404, "Unknown control endpoint"));
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const arrivedAt = performance.now();
    const url = new URL(req.url ?? "/", "http://stand-in.invalid");
    const path = url.pathname;
    if (path.startsWith("/__control/")) return control(req, res, path);

    const list: [string, string][] = [...url.searchParams];
    if (req.method === "POST" && (req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) {
      list.push(...new URLSearchParams(await readBody(req)));
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
    record({ method: req.method ?? "GET", path, params: list, headers, at: Date.now() });

    if (path === "/") return send(res, 200, { status: "ok" });
    if (path !== "/api" && !path.startsWith("/api/")) return send(res, 404, errorBody(404, "Not found"));

    const current = fault;
    switch (current.kind) {
      case "latency":
        await sleep(current.ms, timers);
        if (closing) return;
        break;
      case "fixed":
        sendAt.set(res, arrivedAt + current.ms);
        break;
      case "status": {
        const extra: Record<string, string> = current.status === 401 ? { "WWW-Authenticate": 'Basic realm="fusion"' } : {};
        const text = STATUS_TEXT[current.status] ?? http.STATUS_CODES[current.status] ?? "Error";
        return send(res, current.status, current.body ?? errorBody(current.status, text), extra);
      }
      case "malformed":
        return send(res, 200, TRUNCATED_BODY);
      case "reset":
        if (typeof req.socket.resetAndDestroy === "function") req.socket.resetAndDestroy();
        else req.socket.destroy();
        return;
      case "hang":
        return; // the socket stays open until the client gives up or close() destroys it
      default:
        break;
    }

    if (path === "/api" || path === "/api/") return send(res, 200, { status: "ok" });

    const idHeaders: Record<string, string> = { "fusion-request-id": headers["fusion-request-id"] ?? randomId() };
    if (headers["x-request-id"]) idHeaders["x-request-id"] = headers["x-request-id"];

    if (options.apiKey !== undefined && headers["x-api-key"] !== options.apiKey) {
      return send(res, 401, errorBody(401, "Unauthorized"), { "WWW-Authenticate": 'Basic realm="fusion"', ...idHeaders });
    }

    // Fusion's Signals API (reference/fusion-api.md §2): every signal that arrives is kept, in order.
    const signalsPath = /^\/api\/signals\/([^/]+)\/?$/.exec(path);
    if (signalsPath) {
      if (req.method !== "POST") return send(res, 405, errorBody(405, "Method not allowed"), { Allow: "POST", ...idHeaders });
      let batch: unknown;
      try {
        batch = JSON.parse(await readBody(req));
      } catch {
        return send(res, 400, errorBody(400, "Signals must be a JSON array"), idHeaders);
      }
      if (!Array.isArray(batch)) return send(res, 400, errorBody(400, "Signals must be a JSON array"), idHeaders);
      const collection = decodeURIComponent(signalsPath[1]!);
      for (const signal of batch as unknown[]) receivedSignals.push({ collection, signal });
      return send(res, 200, "", idHeaders);
    }

    const m = /^\/api\/apps\/([^/]+)\/query\/([^/]+)(\/suggest)?\/?$/.exec(path);
    let appName: string | undefined;
    let profile: string | undefined;
    try {
      appName = m ? decodeURIComponent(m[1]!) : undefined;
      profile = m ? decodeURIComponent(m[2]!) : undefined;
    } catch {
      // A broken percent-escape names no profile.
    }
    const isSuggest = Boolean(m?.[3]);
    const known = appName === app && (isSuggest ? profile === queryProfile : profile === queryProfile || profile === bomProfile || profile === assetBomProfile);
    if (!known || !profile) return send(res, 404, errorBody(404, "Query profile not found"), idHeaders);
    if (req.method !== "GET" && req.method !== "POST") return send(res, 405, errorBody(405, "Method not allowed"), { Allow: "GET, POST", ...idHeaders });

    const ctx: Context = { params: new Params(list), started: Date.now(), queryId: randomId(), app, profile };
    const answerHeaders = { "x-fusion-query-id": ctx.queryId, ...idHeaders };
    // Under the `fixed` fault the answer time must not depend on the stand-in's own work, which
    // would delay the requests queued behind it on its one thread: a repeated request gets the
    // text computed the first time (its echoed query id included).
    const answerKey = current.kind === "fixed" ? JSON.stringify([req.method, path, list]) : null;
    const repeated = answerKey === null ? undefined : fixedAnswers.get(answerKey);
    if (repeated !== undefined) return send(res, 200, repeated, answerHeaders);
    try {
      const body = isSuggest
        ? await suggest(ctx)
        : profile === queryProfile
          ? await query(ctx)
          : profile === bomProfile
            ? await bom(ctx)
            : await assetBom(ctx);
      if (answerKey !== null) {
        if (fixedAnswers.size >= 1_000) fixedAnswers.clear();
        fixedAnswers.set(answerKey, JSON.stringify(body));
      }
      send(res, 200, body, answerHeaders);
    } catch (error) {
      if (error instanceof SolrSyntaxError) {
        send(
          res,
          400,
          {
            responseHeader: { status: 400, QTime: Date.now() - ctx.started, params: ctx.params.echo() },
            error: {
              metadata: namedList([["error-class", SOLR_EXCEPTION], ["root-error-class", error.rootClass]], nlStyle(ctx.params)),
              msg: error.message,
              code: 400,
            },
          },
          answerHeaders,
        );
      } else {
        const message = error instanceof Error ? error.message : String(error);
        send(
          res,
          500,
          {
            responseHeader: { status: 500, QTime: Date.now() - ctx.started, params: ctx.params.echo() },
            error: { metadata: namedList([["error-class", SOLR_EXCEPTION]], "flat"), msg: message, trace: error instanceof Error ? error.stack : undefined, code: 500 },
          },
          answerHeaders,
        );
      }
    }
  }

  /** Connections closing after their answer (`close-after-answer`): a request arriving on one is dropped. */
  const answeredSockets = new WeakSet<Socket>();
  const server = http.createServer((req, res) => {
    if (answeredSockets.has(req.socket)) return void req.socket.destroy();
    handle(req, res).catch((error: unknown) => {
      send(res, 500, errorBody(500, error instanceof Error ? error.message : String(error)));
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  const applyHabits = (next: Habits) => {
    habits = next;
    // Node's default idle time for kept connections is 5 s.
    server.keepAliveTimeout = next.idleCloseMs ?? 5_000;
  };
  applyHabits(habits);
  // A client that vanished mid-request is no reason to log anything.
  server.on("clientError", (_error, socket) => socket.destroy());

  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : (options.port ?? 0);
  const urlHost = host.includes(":") ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}`,
    port,
    requests,
    signals: receivedSignals,
    setFault(next: Fault) {
      const parsed = validFault(next);
      if (!parsed) throw new Error(`Not a fault: ${JSON.stringify(next)}`);
      fault = parsed;
    },
    setHabits(next: Habits) {
      const parsed = validHabits(next);
      if (!parsed) throw new Error(`Not habits: ${JSON.stringify(next)}`);
      applyHabits(parsed);
    },
    clearRequests() {
      requests.length = 0;
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => {
          data.close();
          resolve();
        });
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
