import fs from "node:fs";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import Database from "better-sqlite3";
import type {
  BomDoc,
  BomRequest,
  BomResponse,
  CursorRequest,
  Doc,
  EngineHealth,
  FacetResult,
  FieldValue,
  Filter,
  SearchEngine,
  SearchRequest,
  SearchResponse,
  Sort,
} from "../../engine";
import { HIGHLIGHTED_FIELDS, OPENING_KINDS } from "../../catalog-fields";
import { BOM_SORT_FIELDS, bomKeyOf, FACET_LIMIT } from "../../engine";
import { SearchError } from "../../errors";
import { ident, readMeta, SCHEMA_VERSION, type CatalogDb } from "./catalog-db.server";
import { type DocValues, isCatalogField, loadDocValues, NO_VALUE } from "./doc-values.server";
import { asksForNothing, numberKey, partNumberKeyOf, positiveTerms, searchQuery, type QueryTree } from "../../query/query";
import { highlightText, highlightTokens, matchExpressions } from "./fts-query";
import { buildVocabulary, collate, type Vocabulary } from "./spelling";

const RELOAD_CHECK_MS = 2000;

interface Catalog {
  db: CatalogDb;
  maxRowid: number;
  itemCount: number;
  /** When the catalogue file was built (an import or the sample data), for the backup notice and health. */
  builtAt: string | null;
  docValues: Map<string, DocValues>;
  statements: Map<string, { statement: Database.Statement; columns: string[] }>;
  vocabulary?: Vocabulary;
  fileId: string;
  readers: number;
  superseded: boolean;
}

interface Evaluation {
  /** Matching rowids in result order. */
  rows: Int32Array;
  facets: FacetResult[];
  tokens: string[];
}

/** The catalogue file is missing, unreadable or of another schema; `detail` says which, for the log. */
export class CatalogUnavailableError extends SearchError {
  override name = "CatalogUnavailableError";
  constructor(override readonly detail: string) {
    super("The catalogue is not available yet", "outage");
  }
}

function fileId(path: string): string {
  const stat = fs.statSync(path);
  return `${stat.ino}:${stat.mtimeMs}:${stat.size}`;
}

function openCatalog(path: string): Catalog {
  if (!fs.existsSync(path)) throw new CatalogUnavailableError(`Catalogue file not found: ${path}`);
  const id = fileId(path);
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    db.pragma("query_only = ON");
    db.pragma("cache_size = -32768");
    db.pragma("mmap_size = 268435456");
    const meta = readMeta(db);
    if (Number(meta.schema_version) !== SCHEMA_VERSION) {
      throw new CatalogUnavailableError(
        `Catalogue ${path} has schema version ${meta.schema_version ?? "unknown"}, expected ${SCHEMA_VERSION}; re-import it.`,
      );
    }
    const { maxRowid, itemCount } = db
      .prepare("SELECT coalesce(max(rowid), 0) AS maxRowid, count(*) AS itemCount FROM items")
      .get() as { maxRowid: number; itemCount: number };
    return { db, maxRowid, itemCount, builtAt: meta.built_at ?? null, docValues: new Map(), statements: new Map(), fileId: id, readers: 0, superseded: false };
  } catch (error) {
    db.close();
    if (error instanceof CatalogUnavailableError) throw error;
    throw new CatalogUnavailableError(`Catalogue ${path} cannot be read: ${error instanceof Error ? error.message : error}`);
  }
}

/** Fewer results than this, and the page offers a corrected query when one finds more. */
export const FEW_RESULTS = 3;

/** The exact-match keys of a tree: the whole query as one number, and each word holding a digit. */
function exactKeysOf(tree: QueryTree): string[] {
  const keys = new Set<string>();
  const whole = partNumberKeyOf(tree);
  if (whole) keys.add(whole);
  for (const term of positiveTerms(tree)) {
    const key = numberKey(term.text);
    if (term.kind === "word" && key.length >= 3 && /\p{N}/u.test(key)) keys.add(key);
  }
  return [...keys].slice(0, 8);
}

const FETCH_CHUNK = 500;

/** Row of the items table (raw values, `rowid` first) → engine document; absent values left out, as Solr does. */
function rowToDoc(columns: string[], row: unknown[]): Doc {
  const doc: Record<string, FieldValue> = {};
  let extra: unknown = null;
  for (let c = 1; c < columns.length; c++) {
    const value = row[c];
    if (value === null || value === undefined) continue;
    const name = columns[c]!;
    if (name === "extra_json") extra = value;
    else doc[name] = value as FieldValue;
  }
  if (typeof extra === "string") {
    for (const [key, value] of Object.entries(JSON.parse(extra) as Record<string, FieldValue>)) {
      if (!(key in doc)) doc[key] = value;
    }
  }
  return doc as Doc;
}

/** A document from a row of the items table, its rowid first. */
function docOfRow(row: Record<string, unknown>): Doc {
  const columns = Object.keys(row);
  return rowToDoc(["rowid", ...columns.filter((c) => c !== "rowid")], [row.rowid, ...columns.filter((c) => c !== "rowid").map((c) => row[c])]);
}

/**
 * The embedded catalogue engine: SQLite FTS5 finds the text matches, in-memory doc values do the
 * filtering, multi-select facet counting and sorting in one pass. The catalogue file is replaced
 * atomically by imports; the engine notices a new file and switches to it between requests.
 */
export class EmbeddedEngine implements SearchEngine {
  readonly name = "embedded" as const;
  private catalog?: Catalog;
  private lastCheck = 0;

  constructor(private readonly path: string) {}

  /** Opens (or re-opens after an import) the catalogue; throws CatalogUnavailableError. */
  private current(): Catalog {
    const now = Date.now();
    if (this.catalog && now - this.lastCheck < RELOAD_CHECK_MS) return this.catalog;
    this.lastCheck = now;
    if (this.catalog) {
      let changed = false;
      try {
        changed = fileId(this.path) !== this.catalog.fileId;
      } catch {
        // The file vanished: keep serving the open catalogue rather than failing every search.
      }
      if (!changed) return this.catalog;
      const next = openCatalog(this.path);
      this.retire(this.catalog);
      this.catalog = next;
      return next;
    }
    this.catalog = openCatalog(this.path);
    return this.catalog;
  }

  private retire(catalog: Catalog): void {
    catalog.superseded = true;
    if (catalog.readers === 0) catalog.db.close();
  }

  /** Opens the catalogue now (for readiness) and reports its size. */
  open(): { items: number; builtAt: string | null } {
    const catalog = this.current();
    return { items: catalog.itemCount, builtAt: catalog.builtAt };
  }

  close(): void {
    if (this.catalog) this.catalog.db.close();
    this.catalog = undefined;
  }

  /** Loads and caches the doc values of a field, e.g. the default facets at start-up. */
  warm(fields: readonly string[]): void {
    const catalog = this.current();
    for (const field of fields) if (isCatalogField(field)) this.docValues(catalog, field);
  }

  private docValues(catalog: Catalog, field: string): DocValues {
    let dv = catalog.docValues.get(field);
    if (!dv) {
      dv = loadDocValues(catalog.db, field, catalog.maxRowid);
      catalog.docValues.set(field, dv);
    }
    return dv;
  }

  /** The rows the query's text matches, best first when sorted by relevance; null for every row. */
  private candidatesOf(catalog: Catalog, request: { q: string; within: string[]; sort: Sort }, tree: ReturnType<typeof searchQuery>): ArrayLike<number> | null {
    const { include, exclude } = matchExpressions(tree);
    if (asksForNothing(request.q, request.within, tree)) return [];
    if (include !== null) {
      const match = exclude === null ? include : `${include} NOT ${exclude}`;
      const relevance = request.sort === null;
      const order = relevance ? " ORDER BY rank, rowid" : "";
      const matched = catalog.db.prepare(`SELECT rowid FROM items_fts WHERE items_fts MATCH ?${order}`).pluck().all(match) as number[];
      return relevance ? this.exactFirst(catalog, matched, tree) : matched;
    }
    if (exclude === null) return null;
    // Only exclusions: every item but the excluded ones, in rowid order.
    const out = new Uint8Array(catalog.maxRowid + 1);
    for (const rowid of catalog.db.prepare("SELECT rowid FROM items_fts WHERE items_fts MATCH ?").pluck().iterate(exclude) as Iterable<number>) out[rowid] = 1;
    const kept: number[] = [];
    for (let rowid = 1; rowid <= catalog.maxRowid; rowid++) if (!out[rowid]) kept.push(rowid);
    return kept;
  }

  /**
   * One group per filtered field: include values OR-ed, groups AND-ed, excludes always applied.
   * `impossible` when an include names a field the catalogue does not have.
   */
  private filterGroups(catalog: Catalog, filters: Filter[], facetIndex: Map<string, number>) {
    const groups: { ids: Int32Array; include: Uint8Array | null; exclude: Uint8Array | null; facet: number }[] = [];
    let impossible = false;
    const byField = new Map<string, Filter[]>();
    for (const filter of filters) byField.set(filter.field, [...(byField.get(filter.field) ?? []), filter]);
    for (const [field, fieldFilters] of byField) {
      const includes = fieldFilters.filter((f) => f.type === "include");
      if (!isCatalogField(field)) {
        if (includes.length > 0) impossible = true;
        continue;
      }
      const dv = this.docValues(catalog, field);
      const mask = () => new Uint8Array(dv.dict.length);
      const include = includes.length > 0 ? mask() : null;
      let exclude: Uint8Array | null = null;
      for (const filter of fieldFilters) {
        const id = dv.idOf(filter.value);
        if (filter.type === "include") {
          if (id !== undefined) include![id] = 1;
        } else if (id !== undefined) {
          exclude ??= mask();
          exclude[id] = 1;
        }
      }
      groups.push({ ids: dv.ids, include, exclude, facet: facetIndex.get(field) ?? -1 });
    }
    return { groups, impossible };
  }

  private evaluate(
    catalog: Catalog,
    request: { q: string; within: string[]; filters: Filter[]; sort: Sort },
    facetFields: readonly string[],
  ): Evaluation {
    const tree = searchQuery(request.q, request.within);
    const candidates = this.candidatesOf(catalog, request, tree);
    const tokens = highlightTokens(tree);

    const facetDvs = facetFields.filter(isCatalogField).map((field) => this.docValues(catalog, field));
    const counts = facetDvs.map((dv) => new Int32Array(dv.dict.length));
    const facetIndex = new Map(facetDvs.map((dv, i) => [dv.field, i]));
    const { groups, impossible } = this.filterGroups(catalog, request.filters, facetIndex);

    const total = candidates ? candidates.length : catalog.maxRowid;
    const passing = new Int32Array(total);
    let n = 0;
    if (!impossible) {
      for (let i = 0; i < total; i++) {
        const rowid = candidates ? candidates[i]! : i + 1;
        let failedGroup = -1;
        let failures = 0;
        for (let g = 0; g < groups.length; g++) {
          const group = groups[g]!;
          const value = group.ids[rowid]!;
          if (group.exclude && value !== NO_VALUE && group.exclude[value]) {
            failures = 2;
            break;
          }
          if (group.include && (value === NO_VALUE || !group.include[value])) {
            failedGroup = g;
            if (++failures > 1) break;
          }
        }
        if (failures === 0) {
          passing[n++] = rowid;
          for (let f = 0; f < facetDvs.length; f++) {
            const value = facetDvs[f]!.ids[rowid]!;
            if (value !== NO_VALUE) counts[f]![value]!++;
          }
        } else if (failures === 1) {
          // Multi-select: a facet's counts ignore that facet's own include filter.
          const f = groups[failedGroup]!.facet;
          if (f >= 0) {
            const value = facetDvs[f]!.ids[rowid]!;
            if (value !== NO_VALUE) counts[f]![value]!++;
          }
        }
      }
    }

    let rows: Int32Array = passing.subarray(0, n);
    if (request.sort && isCatalogField(request.sort.field)) {
      rows = this.sortRows(this.docValues(catalog, request.sort.field), rows, request.sort.direction === "desc");
    }

    const facets = facetDvs.map((dv, f) => {
      const values: { value: string; count: number }[] = [];
      const c = counts[f]!;
      for (let id = 0; id < c.length; id++) if (c[id]! > 0) values.push({ value: dv.dict[id]!, count: c[id]! });
      values.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
      return { field: dv.field, values: values.slice(0, FACET_LIMIT) };
    });
    return { rows, facets, tokens };
  }

  /**
   * An exact item-number or part-number match comes first (item numbers before manufacturer part
   * numbers before the others), then the rest in bm25 order.
   */
  private exactFirst(catalog: Catalog, ranked: number[], tree: QueryTree): number[] {
    const keys = exactKeysOf(tree);
    if (keys.length === 0 || ranked.length === 0) return ranked;
    const hits = catalog.db
      .prepare(`SELECT item, min(kind) AS kind FROM number_keys WHERE key IN (${keys.map(() => "?").join(",")}) GROUP BY item LIMIT 1000`)
      .all(...keys) as { item: number; kind: number }[];
    if (hits.length === 0) return ranked;
    const kindOf = new Map(hits.map((h) => [h.item, h.kind]));
    const exact = ranked.filter((rowid) => kindOf.has(rowid));
    if (exact.length === 0) return ranked;
    exact.sort((a, b) => kindOf.get(a)! - kindOf.get(b)!);
    return [...exact, ...ranked.filter((rowid) => !kindOf.has(rowid))];
  }

  /** Counting sort by value rank: linear in the rows, stable (ties keep rowid order), nulls last. */
  private sortRows(dv: DocValues, rows: Int32Array, descending: boolean): Int32Array {
    const ords = dv.ords;
    const ranks = dv.distinctRanks;
    const bucketOf = (rowid: number) => {
      const id = dv.ids[rowid]!;
      if (id === NO_VALUE) return ranks;
      const ord = ords[id]!;
      return descending ? ranks - 1 - ord : ord;
    };
    const starts = new Int32Array(ranks + 2);
    for (const rowid of rows) starts[bucketOf(rowid) + 1]!++;
    for (let b = 1; b < starts.length; b++) starts[b]! += starts[b - 1]!;
    const out = new Int32Array(rows.length);
    for (const rowid of rows) out[starts[bucketOf(rowid)]!++] = rowid;
    return out;
  }

  /** A prepared `rowid IN (…)` select per batch size, kept for the catalogue's lifetime. */
  private byRowids(catalog: Catalog, count: number): { statement: Database.Statement; columns: string[] } {
    const key = `rowids:${count}`;
    let cached = catalog.statements.get(key);
    if (!cached) {
      const statement = catalog.db.prepare(`SELECT * FROM items WHERE rowid IN (${new Array(count).fill("?").join(",")})`).raw(true);
      cached = { statement, columns: statement.columns().map((c) => c.name) };
      catalog.statements.set(key, cached);
    }
    return cached;
  }

  private fetchDocs(catalog: Catalog, rowids: ArrayLike<number>): Doc[] {
    if (rowids.length === 0) return [];
    const ids = Array.from(rowids);
    const byRowid = new Map<number, Doc>();
    // SQLite's default limit on bound parameters is 32766; batches stay far below it.
    for (let i = 0; i < ids.length; i += FETCH_CHUNK) {
      const chunk = ids.slice(i, i + FETCH_CHUNK);
      const { statement, columns } = this.byRowids(catalog, chunk.length);
      for (const row of statement.all(...chunk) as unknown[][]) {
        const doc = rowToDoc(columns, row);
        byRowid.set(row[0] as number, doc);
      }
    }
    return ids.map((rowid) => byRowid.get(rowid)).filter((doc): doc is Doc => doc !== undefined);
  }

  async search(request: SearchRequest): Promise<SearchResponse> {
    const catalog = this.current();
    const { rows, facets, tokens } = this.evaluate(catalog, request, request.facetFields);
    const start = Math.max(0, request.start);
    const docs = this.fetchDocs(catalog, rows.subarray(start, start + Math.max(0, request.rows)));
    const highlighting: SearchResponse["highlighting"] = {};
    if (request.highlight !== false && tokens.length > 0) {
      for (const doc of docs) {
        const fields: Record<string, string[]> = {};
        for (const field of HIGHLIGHTED_FIELDS) {
          const value = doc[field];
          const marked = typeof value === "string" ? highlightText(value, tokens) : null;
          if (marked) fields[field] = [marked];
        }
        highlighting[doc.id] = fields;
      }
    }
    const suggestions = rows.length < FEW_RESULTS ? this.didYouMean(catalog, request, rows.length) : [];
    return { docs, total: rows.length, facets, highlighting, suggestions };
  }

  /**
   * Spell-check collation from the catalogue's own words: the query with each unknown word
   * replaced by its nearest known word, offered only when that query finds more items.
   */
  private didYouMean(catalog: Catalog, request: SearchRequest, total: number): string[] {
    if (request.q.trim() === "") return [];
    catalog.vocabulary ??= buildVocabulary(catalog.db.prepare("SELECT term, docs FROM vocabulary").raw(true).iterate() as Iterable<[string, number]>);
    const found = (q: string) => this.evaluate(catalog, { q, within: [], filters: request.filters, sort: request.sort }, []).rows.length;
    const better = collate(request.q, catalog.vocabulary, (q) => found(q) > total);
    return better ? [better] : [];
  }

  /**
   * Items whose item number or manufacturer part number is `text` (case, spaces and separators
   * ignored), at most `limit`: a scanned or typed number opens its item.
   */
  async findByNumber(text: string, limit = 2): Promise<Doc[]> {
    const key = numberKey(text);
    if (!key) return [];
    const catalog = this.current();
    const rowids = catalog.db
      .prepare(`SELECT DISTINCT item FROM number_keys WHERE key = ? AND kind IN (${OPENING_KINDS.join(",")}) ORDER BY item LIMIT ?`)
      .pluck()
      .all(key, Math.max(1, Math.min(limit, 10))) as number[];
    return this.fetchDocs(catalog, rowids);
  }

  async *cursor(request: CursorRequest): AsyncIterable<Doc[]> {
    const catalog = this.current();
    catalog.readers++;
    try {
      const { rows } = this.evaluate(catalog, request, []);
      const end = Math.min(rows.length, request.limit ?? rows.length);
      const size = Math.max(1, request.batchSize);
      for (let i = 0; i < end; i += size) {
        // SQLite reads are synchronous: give the event loop a turn between batches so the rows
        // already produced reach the network and other requests are served meanwhile.
        if (i > 0) await yieldToEventLoop();
        yield this.fetchDocs(catalog, rows.subarray(i, Math.min(end, i + size)));
      }
    } finally {
      catalog.readers--;
      if (catalog.superseded && catalog.readers === 0) catalog.db.close();
    }
  }

  async getProduct(idOrItemNumber: string): Promise<Doc | null> {
    const catalog = this.current();
    const row = catalog.db
      .prepare(
        `SELECT * FROM items WHERE id = ? OR item_number_s = ?
         ORDER BY (id = ?) DESC, (item_number_s = ? COLLATE BINARY) DESC, rowid LIMIT 1`,
      )
      .get(idOrItemNumber, idOrItemNumber, idOrItemNumber, idOrItemNumber) as Record<string, unknown> | undefined;
    return row ? docOfRow(row) : null;
  }

  async bom(request: BomRequest): Promise<BomResponse> {
    const catalog = this.current();
    const key = bomKeyOf(request);
    const where = request.type ? `${key.field} = ? AND type = ?` : `${key.field} = ?`;
    const params = request.type ? [key.value, request.type] : [key.value];
    const sort = request.sort && BOM_SORT_FIELDS.includes(request.sort.field) ? request.sort : null;
    const order = sort
      ? `${ident(sort.field)} IS NULL, ${ident(sort.field)} ${sort.direction === "desc" ? "DESC" : "ASC"}, rowid`
      : "rowid";
    const docs = catalog.db
      .prepare(`SELECT ${["id", ...BOM_SORT_FIELDS, "type"].join(", ")} FROM bom WHERE ${where} ORDER BY ${order} LIMIT ? OFFSET ?`)
      .all(...params, Math.max(0, request.rows), Math.max(0, request.start)) as BomDoc[];
    const { total } = catalog.db.prepare(`SELECT count(*) AS total FROM bom WHERE ${where}`).get(...params) as {
      total: number;
    };
    return { docs, total };
  }

  async suggest(prefix: string, count: number): Promise<string[]> {
    const trimmed = prefix.trim();
    if (!trimmed) return [];
    const catalog = this.current();
    return catalog.db
      .prepare("SELECT item_number_s FROM items WHERE item_number_s >= ? AND item_number_s < ? ORDER BY item_number_s LIMIT ?")
      .pluck()
      .all(trimmed, `${trimmed}\uffff`, Math.max(1, Math.min(count, 50))) as string[];
  }

  async health(): Promise<EngineHealth> {
    try {
      const { items, builtAt } = this.open();
      return { ok: true, detail: `${items} items${builtAt ? `, built ${builtAt}` : ""}` };
    } catch (error) {
      return { ok: false, detail: error instanceof CatalogUnavailableError ? error.detail : error instanceof Error ? error.message : String(error) };
    }
  }
}
