/**
 * The stand-in's own index over recorded documents (tests/fusion-stand-in/recorded/*.json): the
 * documents of a parts collection and its BOM records as Fusion's query profiles return them
 * (`fl=*`). It reads the lucene query the portal sends as Solr would, with its own small matcher,
 * so the portal's Fusion client is never checked against the portal's own search engine.
 *
 * What it understands: `*:*`; required (`+`), excluded (`-`) and optional clauses (q.op=OR);
 * words (a word matches a token it begins), `"phrases"`, `(a OR b)` groups, `AND` between words,
 * and `field:value`, `field:"value"`, `field:(v1 OR v2)` on string fields (exact, as Solr's `_s`).
 */
import fs from "node:fs";
import type { BomDoc, BomRequest, Doc, FieldValue, Filter, Sort } from "../../app/search/engine";
import { BELOW_MINIMUM, STOCK_LEVEL_FIELD, STOCK_LEVEL_INPUTS } from "../../app/search/catalog-fields";
import { bomKeyOf, HL_POST, HL_PRE } from "../../app/search/engine";
import { normalizeWord, vocabularyOf, type Vocabulary } from "./spellcheck";

export const RECORDED_DIR = new URL("./recorded/", import.meta.url);

/** A document field's text, folded as Solr's text analysis folds it. */
function tokens(text: string): string[] {
  return (normalizeWord(text).match(/[\p{L}\p{N}]+/gu) ?? []) as string[];
}

type Term =
  | { kind: "all" }
  | { kind: "word"; text: string }
  | { kind: "phrase"; words: string[] }
  | { kind: "field"; field: string; values: string[] }
  | { kind: "any"; terms: Term[] };

interface Clause {
  occur: "must" | "should" | "not";
  term: Term;
}

const unescape = (text: string) => text.replace(/\\(.)/g, "$1");

/** Reads one term at `at`: returns it and where it ends. */
function readTerm(q: string, at: number): [Term, number] {
  if (q.startsWith("*:*", at)) return [{ kind: "all" }, at + 3];
  if (q[at] === '"') {
    let end = at + 1;
    while (end < q.length && q[end] !== '"') end += q[end] === "\\" ? 2 : 1;
    return [{ kind: "phrase", words: tokens(unescape(q.slice(at + 1, end))) }, end + 1];
  }
  if (q[at] === "(") {
    const terms: Term[] = [];
    let i = at + 1;
    while (i < q.length && q[i] !== ")") {
      if (/\s/.test(q[i]!)) {
        i++;
        continue;
      }
      if (q.startsWith("OR", i) && /[\s)]/.test(q[i + 2] ?? " ")) {
        i += 2;
        continue;
      }
      const [term, end] = readTerm(q, i);
      terms.push(term);
      i = end;
    }
    return [{ kind: "any", terms }, i + 1];
  }
  // A word, up to an unescaped space or parenthesis; `field:` before it makes it a field clause.
  let end = at;
  while (end < q.length && !/[\s()]/.test(q[end]!)) end += q[end] === "\\" ? 2 : 1;
  const raw = q.slice(at, end);
  const field = /^([A-Za-z_][A-Za-z0-9_.]*):(.*)$/.exec(raw);
  if (field) {
    const [, name, rest] = field;
    if (rest === "" && (q[end] === "(" || q[end] === '"')) {
      const [value, after] = readTerm(q, end);
      return [{ kind: "field", field: name!, values: fieldValues(value, q.slice(end, after)) }, after];
    }
    return [{ kind: "field", field: name!, values: [unescape(rest!)] }, end];
  }
  return [{ kind: "word", text: normalizeWord(unescape(raw)) }, end];
}

/** The exact values of `field:"v"` or `field:("v1" OR "v2")`, as written (string fields are not analysed). */
function fieldValues(term: Term, source: string): string[] {
  const quoted = [...source.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => unescape(m[1]!));
  if (quoted.length > 0) return quoted;
  return term.kind === "any" ? term.terms.flatMap((t) => (t.kind === "word" ? [t.text] : [])) : [];
}

/** The lucene query as clauses; `a AND b` makes both required. */
export function readQuery(q: string): Clause[] {
  const clauses: Clause[] = [];
  let pendingAnd = false;
  for (let i = 0; i < q.length; ) {
    if (/\s/.test(q[i]!)) {
      i++;
      continue;
    }
    if (/^(AND|OR)(\s|$)/.test(q.slice(i))) {
      pendingAnd = q.startsWith("AND", i);
      if (pendingAnd && clauses.length > 0 && clauses.at(-1)!.occur === "should") clauses.at(-1)!.occur = "must";
      i += 3;
      continue;
    }
    let occur: Clause["occur"] = pendingAnd ? "must" : "should";
    if (q[i] === "+") occur = "must";
    if (q[i] === "-") occur = "not";
    if (q[i] === "+" || q[i] === "-") i++;
    const [term, end] = readTerm(q, i);
    clauses.push({ occur, term });
    pendingAnd = false;
    i = Math.max(end, i + 1);
  }
  return clauses;
}

interface Indexed {
  doc: Doc;
  /** Every token of the document's text and string fields (Solr's catch-all copy field). */
  words: string[];
  /** The same, joined, for phrases. */
  text: string;
}

function index(doc: Doc): Indexed {
  const words: string[] = [];
  for (const [name, value] of Object.entries(doc)) {
    if (!/_(t|s)$/.test(name) && name !== "id") continue;
    for (const v of Array.isArray(value) ? value : [value]) if (typeof v === "string") words.push(...tokens(v));
  }
  return { doc, words, text: ` ${words.join(" ")} ` };
}

function matches(entry: Indexed, term: Term): boolean {
  switch (term.kind) {
    case "all":
      return true;
    case "word":
      return term.text !== "" && entry.words.some((w) => w.startsWith(term.text));
    case "phrase":
      return term.words.length > 0 && entry.text.includes(` ${term.words.join(" ")} `);
    case "field": {
      const value = entry.doc[term.field];
      const values = value === null || value === undefined ? [] : Array.isArray(value) ? value : [String(value)];
      return term.values.some((v) => values.includes(v));
    }
    case "any":
      return term.terms.some((t) => matches(entry, t));
  }
}

/** How many optional and required clauses hold: the stand-in's relevance. */
function score(entry: Indexed, clauses: Clause[]): number | null {
  let hits = 0;
  let optional = 0;
  for (const { occur, term } of clauses) {
    const hit = matches(entry, term);
    if (occur === "not" && hit) return null;
    if (occur === "must" && !hit) return null;
    if (occur === "should") optional++;
    if (hit && occur !== "not") hits++;
  }
  const required = clauses.some((c) => c.occur === "must");
  // q.op=OR: without a required clause, one of the optional ones must hold.
  if (!required && optional > 0 && hits === 0) return null;
  // Only exclusions (`-wall`) match everything else.
  return hits;
}

/**
 * A document's values of a field as strings; the stock level (no field of the index) is what the
 * client's function range computes: BELOW_MINIMUM when the quantity on hand is below the minimum.
 */
export function valuesOf(doc: Doc, field: string): string[] {
  if (field === STOCK_LEVEL_FIELD) {
    const [onHand, minimum] = [doc[STOCK_LEVEL_INPUTS.onHand], doc[STOCK_LEVEL_INPUTS.minimum]];
    return typeof onHand === "number" && typeof minimum === "number" && onHand < minimum ? [BELOW_MINIMUM] : [];
  }
  const raw = doc[field];
  return raw === null || raw === undefined ? [] : Array.isArray(raw) ? raw.map(String) : [String(raw)];
}

/** Solr's `fq` semantics for the portal's filters: values of one field OR-ed, excludes first. */
export function filterMatches(doc: Doc, filters: Filter[]): boolean {
  const byField = new Map<string, Filter[]>();
  for (const f of filters) byField.set(f.field, [...(byField.get(f.field) ?? []), f]);
  for (const [field, list] of byField) {
    const values = valuesOf(doc, field);
    if (list.some((f) => f.type === "exclude" && values.includes(f.value))) return false;
    const includes = list.filter((f) => f.type === "include");
    if (includes.length > 0 && !includes.some((f) => values.includes(f.value))) return false;
  }
  return true;
}

function compare(a: FieldValue | undefined, b: FieldValue | undefined): number {
  // Solr sorts missing values last in either direction (sortMissingLast).
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** The text fields whose snippets a highlighter returns. */
const HIGHLIGHTED = /_t$/;

function highlight(doc: Doc, clauses: Clause[]): Record<string, string[]> {
  const words = clauses.filter((c) => c.occur !== "not").flatMap(({ term }) => (term.kind === "word" ? [term.text] : term.kind === "phrase" ? term.words : term.kind === "any" ? term.terms.flatMap((t) => (t.kind === "word" ? [t.text] : [])) : []));
  const out: Record<string, string[]> = {};
  if (words.length === 0) return out;
  for (const [name, value] of Object.entries(doc)) {
    if (!HIGHLIGHTED.test(name) || typeof value !== "string") continue;
    let marked = false;
    const snippet = value.replace(/[\p{L}\p{N}]+/gu, (word) => {
      if (!words.some((w) => normalizeWord(word).startsWith(w))) return word;
      marked = true;
      return `${HL_PRE}${word}${HL_POST}`;
    });
    if (marked) out[name] = [snippet];
  }
  return out;
}

export interface RecordedSearch {
  q: string;
  filters: Filter[];
  sort: Sort;
  start: number;
  rows: number;
  facetFields: string[];
  highlight: boolean;
}

export interface RecordedAnswer {
  docs: Doc[];
  total: number;
  facets: Map<string, { value: string; count: number }[]>;
  highlighting: Record<string, Record<string, string[]>>;
}

interface Corpus {
  items: Doc[];
  boms: BomDoc[];
}

function readJson<T>(name: string): T {
  return JSON.parse(fs.readFileSync(new URL(name, RECORDED_DIR), "utf8")) as T;
}

/** The recorded answers: `q=*:*&fl=*` of the parts profile, and every record of the BOM profile. */
export function loadCorpus(): Corpus {
  const items = readJson<{ response: { docs: Doc[] } }>("parts.json").response.docs;
  const boms = readJson<{ response: { docs: Record<string, string | number>[] } }>("boms.json").response.docs.map(bomOf);
  return { items, boms };
}

/** A BOM record from its index form (`type_s`, `quantity_i`…), which the stand-in writes back the same way. */
function bomOf(doc: Record<string, string | number>): BomDoc {
  const text = (name: string) => (doc[name] === undefined ? null : String(doc[name]));
  const quantity = doc.quantity_i ?? doc.quantity_d;
  return {
    id: String(doc.id),
    type: doc.type_s as BomDoc["type"],
    org_code: text("org_code_s"),
    item_number: String(doc.item_number_s),
    asset_number: text("asset_number_s"),
    asset_serial_number: text("asset_serial_number_s"),
    asset_group: text("asset_group_s"),
    asset_description: text("asset_description_t"),
    quantity: quantity === undefined ? null : Number(quantity),
  };
}

export class RecordedIndex {
  private readonly entries: Indexed[];
  private readonly boms: BomDoc[];
  readonly vocabulary: Vocabulary;

  constructor(corpus: Corpus = loadCorpus()) {
    this.entries = corpus.items.map(index);
    this.boms = corpus.boms;
    this.vocabulary = vocabularyOf(corpus.items.map((d) => String(d.item_description_t ?? "")));
  }

  get size(): number {
    return this.entries.length;
  }

  search(request: RecordedSearch): RecordedAnswer {
    const clauses = readQuery(request.q);
    const hits: { entry: Indexed; score: number }[] = [];
    for (const entry of this.entries) {
      if (!filterMatches(entry.doc, request.filters)) continue;
      const s = score(entry, clauses);
      if (s !== null) hits.push({ entry, score: s });
    }
    const { sort } = request;
    hits.sort((a, b) => {
      const bySort = sort ? compare(a.entry.doc[sort.field], b.entry.doc[sort.field]) * (sort.direction === "desc" ? -1 : 1) : b.score - a.score;
      return bySort || compare(a.entry.doc.id, b.entry.doc.id);
    });
    const page = hits.slice(request.start, request.start + request.rows).map((h) => h.entry.doc);
    const facets = new Map<string, { value: string; count: number }[]>();
    for (const field of request.facetFields) {
      const counts = new Map<string, number>();
      for (const { entry } of hits) {
        for (const v of valuesOf(entry.doc, field)) counts.set(v, (counts.get(v) ?? 0) + 1);
      }
      facets.set(field, [...counts].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count || compare(a.value, b.value)));
    }
    const highlighting = request.highlight ? Object.fromEntries(page.map((doc) => [doc.id, highlight(doc, clauses)])) : {};
    return { docs: page, total: hits.length, facets, highlighting };
  }

  /** A string field matches exactly: `item_number_s` or `id` as written. */
  getProduct(idOrItemNumber: string): Doc | null {
    return this.entries.find((e) => e.doc.item_number_s === idOrItemNumber || e.doc.id === idOrItemNumber)?.doc ?? null;
  }

  /** The suggest handler's dictionary: item numbers that begin with the prefix, any case. */
  suggest(prefix: string, count: number): string[] {
    const wanted = prefix.trim().toUpperCase();
    if (!wanted) return [];
    const found = new Set<string>();
    for (const { doc } of this.entries) {
      const number = String(doc.item_number_s ?? "");
      if (number.toUpperCase().startsWith(wanted)) found.add(number);
    }
    return [...found].sort().slice(0, count);
  }

  bom(request: BomRequest): { docs: BomDoc[]; total: number } {
    const key = bomKeyOf(request);
    const matching = this.boms.filter((b) => b[key.field] === key.value && (!request.type || b.type === request.type));
    const { sort } = request;
    matching.sort((a, b) => (sort ? compare(a[sort.field], b[sort.field]) * (sort.direction === "desc" ? -1 : 1) : 0) || compare(a.id, b.id));
    return { docs: matching.slice(request.start, request.start + request.rows), total: matching.length };
  }
}
