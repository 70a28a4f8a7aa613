/**
 * The stand-in's answers to the API: the query profile (documents, facets, highlighting,
 * spellcheck, cursors), suggestions, the two BOM profiles, and the Signals API, as Fusion gives
 * them (docs/fusion-api.md §1.2, §1.5, §4).
 */
import type http from "node:http";
import type { BomRequest, Doc, FieldValue, Filter, Sort } from "../../app/search/engine";
import { HL_POST, HL_PRE } from "../../app/search/engine";
import type { StandInData } from "./data";
import type { Fault } from "./faults";
import { filterMatches, valuesOf } from "./recorded";
import {
  bomIndexDoc,
  bomSortField,
  bucketValue,
  classicFacetSpecs,
  decodeCursor,
  DEFAULT_ROWS,
  encodeCursor,
  escapeHtml,
  filtersOf,
  fragment,
  freeText,
  jsonFacetSpecs,
  namedList,
  nlStyle,
  Params,
  partSortField,
  randomId,
  SOLR_EXCEPTION,
  sortKey,
  type FacetSpec,
  type NamedListStyle,
} from "./solr-answers";
import { parseBomNumberFilter, parseProductQuery, parseSort, SolrSyntaxError, type SortClause } from "./solr-syntax";
import { check } from "./spellcheck";
import { errorBody, readBody, send, type StandInState } from "./state";

interface Context {
  params: Params;
  started: number;
  queryId: string;
  app: string;
  profile: string;
  data: StandInData;
}

const header = (ctx: Context) => ({
  zkConnected: true,
  status: 0,
  QTime: Date.now() - ctx.started,
  params: { ...ctx.params.echo(), isFusionQuery: "true", fusionQueryId: ctx.queryId, "lw.pipelineId": ctx.profile, context: `app:${ctx.app}` },
  totalTime: Date.now() - ctx.started,
});

// -- query profile ---------------------------------------------------------------------------

async function totalFor(data: StandInData, q: string, filters: Filter[]): Promise<number> {
  return (await data.search({ q, filters, sort: null, start: 0, rows: 0, facetFields: [], highlight: false })).total;
}

/** Where a page starts: `start`, or the position a cursor mark holds (which needs the id in the sort and no start). */
function positionOf(params: Params, clauses: SortClause[], start: number): number {
  const cursorMark = params.get("cursorMark");
  if (cursorMark === undefined) return start;
  if (!clauses.some((c) => c.field === "id")) {
    throw new SolrSyntaxError("Cursor functionality requires a sort containing a uniqueKey field tie breaker", SOLR_EXCEPTION);
  }
  if (start !== 0) throw new SolrSyntaxError("Cursor functionality requires start=0", SOLR_EXCEPTION);
  return decodeCursor(cursorMark, clauses);
}

interface Found {
  docs: Doc[];
  total: number;
  facetValues: Map<string, { value: string; count: number }[]>;
  highlighting: Record<string, Record<string, string[]>>;
}

/** The product lookup form: the item by its number and by its id, as Solr string fields match them. */
async function productLookup(data: StandInData, product: { itemNumber: string; id: string }, filters: Filter[], facetFields: string[], page: { position: number; rows: number }): Promise<Found> {
  const found: Doc[] = [];
  const byItem = await data.getProduct(product.itemNumber);
  // The catalogue matches item numbers case-insensitively; a Solr string field does not.
  if (byItem && (byItem.item_number_s === product.itemNumber || byItem.id === product.itemNumber)) found.push(byItem);
  if (product.id !== product.itemNumber) {
    const byId = await data.getProduct(product.id);
    if (byId && byId.id === product.id && !found.some((d) => d.id === byId.id)) found.push(byId);
  }
  const matching = found.filter((d) => filterMatches(d, filters));
  const facetValues = new Map(
    facetFields.map((field) => {
      const counts = new Map<string, number>();
      for (const doc of matching) {
        for (const v of valuesOf(doc, field)) counts.set(v, (counts.get(v) ?? 0) + 1);
      }
      return [field, [...counts].map(([value, count]) => ({ value, count }))];
    }),
  );
  return { docs: matching.slice(page.position, page.position + page.rows), total: matching.length, facetValues, highlighting: {} };
}

/** The documents with the fields `fl` asks for, and their scores when it asks for `score`. */
function docsOut(params: Params, found: Found, scoreAt: (i: number) => number): { docs: Record<string, FieldValue>[]; wantScore: boolean } {
  const fl = (params.get("fl") ?? "*").split(/[\s,]+/).filter(Boolean);
  const wantScore = fl.includes("score");
  const allFields = fl.includes("*");
  const docs = found.docs.map((doc, i) => {
    const out: Record<string, FieldValue> = {};
    for (const [k, v] of Object.entries(doc)) if (allFields || fl.includes(k)) out[k] = v;
    if (wantScore) out.score = scoreAt(i);
    return out;
  });
  return { docs, wantScore };
}

/** The classic `facet_counts` and the JSON Facet API's `facets` the request asked for, into `body`. */
function addFacets(body: Record<string, unknown>, params: Params, found: Found, specs: { json: FacetSpec[]; classic: FacetSpec[] }): void {
  const { facetValues, total } = found;
  if (specs.classic.length > 0) {
    const facetFieldsOut: Record<string, unknown> = {};
    for (const spec of specs.classic) {
      const values = (facetValues.get(spec.field) ?? []).filter((v) => v.count >= spec.mincount).slice(0, spec.limit);
      facetFieldsOut[spec.key] = namedList(values.map((v) => [v.value, v.count]), nlStyle(params));
    }
    body.facet_counts = { facet_queries: {}, facet_fields: facetFieldsOut, facet_ranges: {}, facet_intervals: {}, facet_heatmaps: {} };
  }
  if (specs.json.length > 0) {
    const facets: Record<string, unknown> = { count: total };
    for (const spec of specs.json) {
      const values = (facetValues.get(spec.field) ?? []).filter((v) => v.count >= spec.mincount).slice(0, spec.limit);
      if (spec.query !== undefined) facets[spec.key] = { count: values.find((v) => v.value === spec.query)?.count ?? 0 };
      else facets[spec.key] = { buckets: values.map((v) => ({ val: bucketValue(spec.field, v.value), count: v.count })) };
    }
    body.facets = facets;
  }
}

/** The `highlighting` section: each document's snippets in the fields, tags, size and encoding asked for. */
function highlightingOut(params: Params, found: Found): Record<string, Record<string, string[]>> {
  const hlFl = (params.get("hl.fl") ?? "*").split(/[\s,]+/).filter(Boolean);
  const anyField = hlFl.length === 0 || hlFl.includes("*");
  const pre = params.get("hl.tag.pre") ?? params.get("hl.simple.pre") ?? "<em>";
  const post = params.get("hl.tag.post") ?? params.get("hl.simple.post") ?? "</em>";
  const fragsize = Number(params.get("hl.fragsize") ?? 100);
  const html = params.get("hl.encoder") === "html";
  const out: Record<string, Record<string, string[]>> = {};
  for (const doc of found.docs) {
    const fields: Record<string, string[]> = {};
    for (const [field, snippets] of Object.entries(found.highlighting[doc.id] ?? {})) {
      if (!anyField && !hlFl.includes(field)) continue;
      fields[field] = snippets.map((s) => {
        const cut = fragment(s, Number.isFinite(fragsize) ? fragsize : 100);
        const safe = html ? escapeHtml(cut) : cut;
        return safe.replaceAll(HL_PRE, pre).replaceAll(HL_POST, post);
      });
    }
    out[doc.id] = fields;
  }
  return out;
}

async function query(ctx: Context): Promise<unknown> {
  const { params, data } = ctx;
  const q = params.get("q") ?? "*:*";
  const start = params.int("start", 0);
  const rows = params.int("rows", DEFAULT_ROWS);
  const sortParam = params.get("sort");
  const clauses = sortParam !== undefined && sortParam.trim() !== "" ? parseSort(sortParam) : [];
  const cursorMark = params.get("cursorMark");
  const position = positionOf(params, clauses, start);
  const first = clauses[0];
  const sort: Sort = !first || first.field === "score" ? null : { field: partSortField(first.field), direction: first.direction };
  const filters = filtersOf(params);
  const specs = { json: jsonFacetSpecs(params), classic: classicFacetSpecs(params) };
  const facetFields = [...new Set([...specs.json, ...specs.classic].map((f) => f.field))];
  const highlight = params.get("hl") === "true" || params.get("hl") === "on";

  // The product lookup form, or free text.
  const product = parseProductQuery(q);
  const text = product ? "" : freeText(q);
  const found: Found = product
    ? await productLookup(data, product, filters, facetFields, { position, rows })
    : await data.search({ q: text === "" ? "*:*" : q, filters, sort, start: position, rows, facetFields, highlight }).then((result) => ({
        docs: result.docs,
        total: result.total,
        facetValues: result.facets,
        highlighting: result.highlighting,
      }));
  const { docs, total } = found;

  // fl and score
  const relevance = sort === null && text !== "";
  const scoreAt = (i: number) => (relevance ? Math.round((1 + (10 * (total - (position + i))) / Math.max(1, total)) * 1e4) / 1e4 : 1);
  const out = docsOut(params, found, scoreAt);

  const body: Record<string, unknown> = {
    responseHeader: header(ctx),
    response: {
      numFound: total,
      start: cursorMark !== undefined ? 0 : start,
      numFoundExact: true,
      ...(out.wantScore ? { maxScore: docs.length > 0 ? scoreAt(0) : 0 } : {}),
      docs: out.docs,
    },
  };
  addFacets(body, params, found, specs);
  if (highlight) body.highlighting = highlightingOut(params, found);
  if (params.get("spellcheck") === "true" || params.get("spellcheck") === "on") {
    body.spellcheck = await spellcheck(data, params, product ? "" : (params.get("spellcheck.q") ?? q), total, filters, nlStyle(params));
  }
  if (cursorMark !== undefined) {
    body.nextCursorMark = docs.length === 0 ? cursorMark : encodeCursor({ position: position + docs.length, sort: sortKey(clauses) });
  }
  return body;
}

async function spellcheck(data: StandInData, params: Params, text: string, numFound: number, filters: Filter[], style: NamedListStyle) {
  const nothing = { suggestions: namedList([], style), correctlySpelled: true, collations: namedList([], style) };
  if (numFound > 0 || freeText(text) === "") return nothing;
  const count = Math.max(1, Number(params.get("spellcheck.count") ?? 1) || 1);
  const { misspellings, collation } = await check(text, data.vocabulary(), async (word) => (await totalFor(data, word, [])) > 0, count);
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
    const hits = await totalFor(data, collation, filters);
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
  const terms = await ctx.data.suggest(prefix, count);
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
  const result = request ? await ctx.data.bom(request) : { docs: [], total: 0 };
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


// -- the API --------------------------------------------------------------------------------

/** The names the stand-in answers to, and its API key. */
export interface Names {
  app: string;
  queryProfile: string;
  bomProfile: string;
  assetBomProfile: string;
  apiKey?: string;
}

/** A request to `/api…` the fault let through, with its parameters (query and form) and headers. */
export interface ApiRequest {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  path: string;
  list: [string, string][];
  headers: Record<string, string>;
  /** The fault when the request arrived. */
  fault: Fault;
}

/** Answers a request to `/api…`: the API's root, the Signals API, or a query profile. */
export async function answerApi(state: StandInState, data: StandInData, names: Names, request: ApiRequest): Promise<void> {
  const { res, path, headers } = request;
  if (path === "/api" || path === "/api/") return send(state, res, 200, { status: "ok" });

  const idHeaders: Record<string, string> = { "fusion-request-id": headers["fusion-request-id"] ?? randomId() };
  if (headers["x-request-id"]) idHeaders["x-request-id"] = headers["x-request-id"];

  if (names.apiKey !== undefined && headers["x-api-key"] !== names.apiKey) {
    return send(state, res, 401, errorBody(401, "Unauthorized"), { "WWW-Authenticate": 'Basic realm="fusion"', ...idHeaders });
  }
  const signalsPath = /^\/api\/signals\/([^/]+)\/?$/.exec(path);
  if (signalsPath) return receiveSignals(state, request, decodeURIComponent(signalsPath[1]!), idHeaders);
  return answerProfile(state, data, names, request, idHeaders);
}

/** Fusion's Signals API (reference/fusion-api.md §2): every signal that arrives is kept, in order. */
async function receiveSignals(state: StandInState, { req, res }: ApiRequest, collection: string, idHeaders: Record<string, string>): Promise<void> {
  if (req.method !== "POST") return send(state, res, 405, errorBody(405, "Method not allowed"), { Allow: "POST", ...idHeaders });
  let batch: unknown;
  try {
    batch = JSON.parse(await readBody(req));
  } catch {
    return send(state, res, 400, errorBody(400, "Signals must be a JSON array"), idHeaders);
  }
  if (!Array.isArray(batch)) return send(state, res, 400, errorBody(400, "Signals must be a JSON array"), idHeaders);
  for (const signal of batch as unknown[]) state.signals.push({ collection, signal });
  return send(state, res, 200, "", idHeaders);
}

/** The profile a path names (`/api/apps/{app}/query/{profile}[/suggest]`), if the stand-in has it. */
function profileOf(path: string, names: Names): { profile: string; isSuggest: boolean } | null {
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
  const { app, queryProfile, bomProfile, assetBomProfile } = names;
  const known = appName === app && (isSuggest ? profile === queryProfile : profile === queryProfile || profile === bomProfile || profile === assetBomProfile);
  return known && profile ? { profile, isSuggest } : null;
}

async function answerProfile(state: StandInState, data: StandInData, names: Names, request: ApiRequest, idHeaders: Record<string, string>): Promise<void> {
  const { req, res, path, list } = request;
  const named = profileOf(path, names);
  if (!named) return send(state, res, 404, errorBody(404, "Query profile not found"), idHeaders);
  if (req.method !== "GET" && req.method !== "POST") return send(state, res, 405, errorBody(405, "Method not allowed"), { Allow: "GET, POST", ...idHeaders });
  const { profile, isSuggest } = named;

  const ctx: Context = { params: new Params(list), started: Date.now(), queryId: randomId(), app: names.app, profile, data };
  const answerHeaders = { "x-fusion-query-id": ctx.queryId, ...idHeaders };
  // Under the `fixed` fault the answer time must not depend on the stand-in's own work, which
  // would delay the requests queued behind it on its one thread: a repeated request gets the
  // text computed the first time (its echoed query id included).
  const answerKey = request.fault.kind === "fixed" ? JSON.stringify([req.method, path, list]) : null;
  const repeated = answerKey === null ? undefined : state.fixedAnswers.get(answerKey);
  if (repeated !== undefined) return send(state, res, 200, repeated, answerHeaders);
  try {
    const body = isSuggest
      ? await suggest(ctx)
      : profile === names.queryProfile
        ? await query(ctx)
        : profile === names.bomProfile
          ? await bom(ctx)
          : await assetBom(ctx);
    if (answerKey !== null) {
      if (state.fixedAnswers.size >= 1_000) state.fixedAnswers.clear();
      state.fixedAnswers.set(answerKey, JSON.stringify(body));
    }
    send(state, res, 200, body, answerHeaders);
  } catch (error) {
    send(state, res, ...solrError(ctx, error), answerHeaders);
  }
}

/** Solr's answer to a request it could not read (400) or that failed (500). */
function solrError(ctx: Context, error: unknown): [number, unknown] {
  if (error instanceof SolrSyntaxError) {
    return [
      400,
      {
        responseHeader: { status: 400, QTime: Date.now() - ctx.started, params: ctx.params.echo() },
        error: {
          metadata: namedList([["error-class", SOLR_EXCEPTION], ["root-error-class", error.rootClass]], nlStyle(ctx.params)),
          msg: error.message,
          code: 400,
        },
      },
    ];
  }
  const message = error instanceof Error ? error.message : String(error);
  return [
    500,
    {
      responseHeader: { status: 500, QTime: Date.now() - ctx.started, params: ctx.params.echo() },
      error: { metadata: namedList([["error-class", SOLR_EXCEPTION]], "flat"), msg: message, trace: error instanceof Error ? error.stack : undefined, code: 500 },
    },
  ];
}
