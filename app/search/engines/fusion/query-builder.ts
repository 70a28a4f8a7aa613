/**
 * Fusion/Solr query parameters, built as a list of small ordered steps
 * `(params, request, config) => void`, each tested on its own (Blacklight's processor chain).
 * User text reaches Solr only as the words and phrases of the query tree (search/query), every
 * special character escaped, with the tree's own operators (`+`, `-`, `OR`), or as phrase-quoted,
 * escaped filter values: never as query syntax of its own.
 */
import { BELOW_MINIMUM, HIGHLIGHTED_FIELDS, OPENING_NUMBER_FIELDS, sortCopyOf, STOCK_LEVEL_FIELD, STOCK_LEVEL_INPUTS } from "../../catalog-fields";
import type { Filter, SearchRequest, Sort } from "../../engine";
import { FACET_LIMIT, HL_POST, HL_PRE } from "../../engine";
import { configuredFacetFields, fieldKey, hasTypeSuffix } from "../../fields";
import { asksForNothing, isMatchAll, positiveTerms, searchQuery, type QueryTree, type Term } from "../../query/query";
import type { SearchConfig } from "../../search-config";

export interface FusionQueryOptions {
  collection?: string;
  /** Cursor iteration: sorts with the `id` tie-breaker and asks for `cursorMark`. */
  cursorMark?: string;
  /** The user's text as plain words (`plainWords`), after the pipeline's parser refused it. */
  plainText?: boolean;
}

export type QueryStep = (params: URLSearchParams, request: SearchRequest, config: SearchConfig, options: FusionQueryOptions) => void;

export const HIGHLIGHT_FRAGSIZE = 150;
export const HIGHLIGHT_MAX_ANALYZED_CHARS = 51200;

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_.]*$/;

/** A Solr phrase: quotes and backslashes escaped, so the value is one literal term. */
export function solrPhrase(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/**
 * One word as a lucene term: every special character escaped (`{!`, `:`, `*`, `"`, `-`…) and the
 * operators AND, OR, NOT lower-cased, so the word can only ever be a word.
 */
export function plainWords(text: string): string {
  return text
    .trim()
    .replace(/[+\-!(){}[\]^"~*?:\\/&|]/g, "\\$&")
    .replace(/(^|\s)(AND|OR|NOT)(?=\s|$)/g, (_m, space: string, word: string) => space + word.toLowerCase());
}

function luceneTerm(term: Term): string {
  return term.kind === "phrase" ? solrPhrase(term.text) : plainWords(term.text);
}

/**
 * The tree in lucene syntax (the default operator is OR, so required clauses carry `+`):
 * `+pump +(valve OR seal) -wall -"self clean"`; only exclusions: `*:* -wall`; nothing asked: `*:*`.
 */
export function luceneQuery(tree: QueryTree): string {
  if (isMatchAll(tree)) return "*:*";
  const parts = tree.all.map((clause) => `+${clause.length === 1 ? luceneTerm(clause[0]!) : `(${clause.map(luceneTerm).join(" OR ")})`}`);
  if (parts.length === 0) parts.push("*:*");
  for (const term of tree.none) parts.push(`-${luceneTerm(term)}`);
  return parts.join(" ");
}

/** The plain-words form, for a pipeline whose parser refuses even escaped syntax: the wanted words, ANDed. */
function plainQuery(tree: QueryTree): string {
  const words = positiveTerms(tree).flatMap((term) => term.text.split(/\s+/)).map(plainWords).filter(Boolean);
  return words.length > 0 ? words.join(" AND ") : "*:*";
}

/**
 * Items by item number or manufacturer part number (MPN or CMPN), as typed and upper-cased (string fields match
 * exactly; separators cannot be ignored without a normalised field in the index).
 */
export function numberQuery(text: string): string {
  const values = [...new Set([text.trim(), text.trim().toUpperCase()])].map(solrPhrase).join(" OR ");
  return OPENING_NUMBER_FIELDS.map((field) => `${field}:(${values})`).join(" OR ");
}

/** Relevance is `score desc`; a cursor needs the `id` tie-breaker, and sorts by `id asc` alone by default. */
export function sortParam(sort: Sort, cursor: boolean): string {
  const field = sort && FIELD_NAME.test(sort.field) ? `${sortCopyOf(sort.field)} ${sort.direction}` : null;
  if (cursor) return field ? `${field}, id asc` : "id asc";
  return field ?? "score desc";
}

export const baseStep: QueryStep = (params, _request, _config, options) => {
  params.set("wt", "json");
  params.set("q.op", "OR");
  params.set("fl", "*,score");
  if (options.collection) params.set("collection", options.collection);
};

/** Spec §5: the search-within terms join the main query's tree, all required. */
export const queryStep: QueryStep = (params, request, _config, options) => {
  const tree = searchQuery(request.q, request.within);
  // Text with nothing searchable in it finds nothing, as on the embedded catalogue.
  if (asksForNothing(request.q, request.within, tree)) params.set("q", "-*:*");
  else params.set("q", options.plainText ? plainQuery(tree) : luceneQuery(tree));
};

export const pagingStep: QueryStep = (params, request, _config, options) => {
  // cursorMark requires start=0 (Solr rejects anything else).
  params.set("start", String(options.cursorMark ? 0 : Math.max(0, request.start)));
  params.set("rows", String(Math.max(0, request.rows)));
  if (options.cursorMark) params.set("cursorMark", options.cursorMark);
};

export const sortStep: QueryStep = (params, request, _config, options) => {
  params.set("sort", sortParam(request.sort, options.cursorMark !== undefined));
};

/**
 * The stock level no index holds (catalog-fields.ts), as a function of two fields: 1 when the
 * quantity on hand is below the minimum, both known; 0 otherwise. Field names only, no user text.
 */
const { onHand: ON_HAND, minimum: MINIMUM } = STOCK_LEVEL_INPUTS;
export const BELOW_MINIMUM_FUNCTION = `if(and(exists(${ON_HAND}),exists(${MINIMUM}),lt(${ON_HAND},${MINIMUM})),1,0)`;
const STOCK_LEVEL_TAG = `${fieldKey(STOCK_LEVEL_FIELD)}_tag`;
/** The items below minimum, or (excluded) every other item, as a function range. */
const belowMinimumQuery = (type: Filter["type"], tag = true) =>
  type === "include"
    ? `{!frange l=1${tag ? ` tag=${STOCK_LEVEL_TAG}` : ""}}${BELOW_MINIMUM_FUNCTION}`
    : `{!frange u=0${tag ? ` tag=${STOCK_LEVEL_TAG}_exclude` : ""}}${BELOW_MINIMUM_FUNCTION}`;

/** Include values of a facet OR-ed into one fq tagged `{facet}_tag`; excludes negated, `{facet}_tag_exclude`. */
export function filterQueries(filters: readonly Filter[], config: SearchConfig): string[] {
  const groups = new Map<string, { include: string[]; exclude: string[] }>();
  const stockLevel = new Set<string>();
  for (const filter of filters) {
    const field = solrFacetField(filter.field, config);
    if (field === STOCK_LEVEL_FIELD && filter.value === BELOW_MINIMUM) {
      stockLevel.add(belowMinimumQuery(filter.type));
      continue;
    }
    if (!FIELD_NAME.test(field)) continue;
    const group = groups.get(field) ?? { include: [], exclude: [] };
    group[filter.type].push(filter.value);
    groups.set(field, group);
  }
  const fqs: string[] = [...stockLevel];
  for (const [field, { include, exclude }] of groups) {
    const key = fieldKey(field);
    const values = (list: string[]) => list.map(solrPhrase).join(" OR ");
    if (include.length) fqs.push(`{!tag=${key}_tag}${field}:(${values(include)})`);
    if (exclude.length) fqs.push(`{!tag=${key}_tag_exclude}-${field}:(${values(exclude)})`);
  }
  return fqs;
}

export const filterStep: QueryStep = (params, request, config) => {
  for (const fq of filterQueries(request.filters, config)) params.append("fq", fq);
};

export const facetStep: QueryStep = (params, request, config) => {
  if (request.facetFields.length === 0) return;
  const spec: Record<string, unknown> = {};
  for (const name of request.facetFields) {
    const field = solrFacetField(name, config);
    if (!FIELD_NAME.test(field)) continue;
    if (field === STOCK_LEVEL_FIELD) spec[field] = { type: "query", q: belowMinimumQuery("include", false), domain: { excludeTags: STOCK_LEVEL_TAG } };
    else spec[field] = { type: "terms", field, limit: FACET_LIMIT, mincount: 1, domain: { excludeTags: `${fieldKey(field)}_tag` } };
  }
  params.set("json.facet", JSON.stringify(spec));
};

/** Private-use markers as highlight tags: the text is escaped by the view and the marks restored. */
export const highlightStep: QueryStep = (params, request) => {
  if (request.highlight === false) return;
  params.set("hl", "true");
  params.set("hl.fl", HIGHLIGHTED_FIELDS.join(","));
  params.set("hl.fragsize", String(HIGHLIGHT_FRAGSIZE));
  params.set("hl.maxAnalyzedChars", String(HIGHLIGHT_MAX_ANALYZED_CHARS));
  params.set("hl.tag.pre", HL_PRE);
  params.set("hl.tag.post", HL_POST);
  params.set("hl.simple.pre", HL_PRE);
  params.set("hl.simple.post", HL_POST);
};

export const spellcheckStep: QueryStep = (params, request) => {
  if (request.q.trim() === "" || request.q.trim() === "*:*") return;
  params.set("spellcheck", "true");
  // The collation is offered as a query to type: it is made from the user's text, not from the
  // rendered lucene query with its `+` and escapes.
  params.set("spellcheck.q", request.q.trim());
  params.set("spellcheck.collate", "true");
  params.set("spellcheck.collateExtendedResults", "true");
};

export const SEARCH_STEPS: QueryStep[] = [baseStep, queryStep, pagingStep, sortStep, filterStep, facetStep, highlightStep, spellcheckStep];
export const CURSOR_STEPS: QueryStep[] = [baseStep, queryStep, pagingStep, sortStep, filterStep];

export function buildQuery(
  request: SearchRequest,
  config: SearchConfig,
  options: FusionQueryOptions = {},
  steps: QueryStep[] = SEARCH_STEPS,
): URLSearchParams {
  const params = new URLSearchParams();
  for (const step of steps) step(params, request, config, options);
  return params;
}

/**
 * The Solr field for a filter or facet name (spec §5, §7): a configured facet field, a name that
 * already has a type suffix as it is, otherwise the configured field with that key or `<name>_s`.
 */
export function solrFacetField(name: string, config: SearchConfig): string {
  const fields = configuredFacetFields(config);
  if (fields.includes(name) || hasTypeSuffix(name)) return name;
  return fields.find((field) => fieldKey(field) === name) ?? `${name}_s`;
}
