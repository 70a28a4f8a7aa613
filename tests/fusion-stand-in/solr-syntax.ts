/**
 * The few pieces of Solr query syntax the portal's Fusion client sends, parsed strictly: filter
 * queries in the two tagged forms and the stock level's function range, the product lookup `q`, `sort` specs and the asset-BOM `fq`.
 * Anything else is a `SolrSyntaxError`, which the stand-in answers with Solr's 400 error body.
 */
import { BELOW_MINIMUM, STOCK_LEVEL_FIELD, STOCK_LEVEL_INPUTS } from "../../app/search/catalog-fields";

export class SolrSyntaxError extends Error {
  override name = "SolrSyntaxError";
  constructor(
    message: string,
    /** Solr's root error class for the error body's metadata. */
    readonly rootClass = "org.apache.solr.search.SyntaxError",
  ) {
    super(message);
  }
}

/** A Solr phrase literal as the client writes it: `"` and `\` escaped with `\`. */
export function solrPhrase(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

const FIELD = /[A-Za-z_][A-Za-z0-9_.]*/y;
const TAG = /\{!tag=([A-Za-z0-9_.-]+)\}/y;

/** A small cursor over a string, for hand-written parsers that must report where they failed. */
class Reader {
  pos = 0;
  constructor(readonly text: string) {}

  get done(): boolean {
    return this.pos >= this.text.length;
  }

  skipSpaces(): void {
    while (!this.done && /\s/.test(this.text[this.pos]!)) this.pos++;
  }

  /** Consumes `literal` when it comes next. */
  eat(literal: string): boolean {
    if (this.text.startsWith(literal, this.pos)) {
      this.pos += literal.length;
      return true;
    }
    return false;
  }

  match(pattern: RegExp): RegExpExecArray | null {
    pattern.lastIndex = this.pos;
    const m = pattern.exec(this.text);
    if (m) this.pos += m[0].length;
    return m;
  }

  /** A `"…"` phrase with backslash escapes (`\x` is `x`), unescaped. */
  phrase(fail: (why: string) => never): string {
    if (!this.eat('"')) fail(`expected '"' at position ${this.pos}`);
    let out = "";
    while (!this.done) {
      const ch = this.text[this.pos++]!;
      if (ch === '"') return out;
      if (ch === "\\") {
        if (this.done) break;
        // Escapes are per UTF-16 code unit in Solr too; a surrogate pair after `\` keeps both halves.
        out += this.text[this.pos++]!;
      } else {
        out += ch;
      }
    }
    return fail("Lexical error: encountered <EOF> inside a quoted phrase");
  }
}

function syntaxFailer(input: string) {
  return (why: string): never => {
    throw new SolrSyntaxError(`org.apache.solr.search.SyntaxError: Cannot parse '${input}': ${why}`);
  };
}

export interface ParsedFilter {
  tag: string;
  field: string;
  type: "include" | "exclude";
  values: string[];
}

/**
 * `{!tag=<facet>_tag}<field>:("v1" OR "v2")` → include values;
 * `{!tag=<facet>_tag_exclude}-<field>:("v1" OR "v2")` → exclude values.
 * The tag's suffix must agree with the polarity. Any other shape throws SolrSyntaxError.
 */
export function parseFilterQuery(fq: string): ParsedFilter {
  const fail = syntaxFailer(fq);
  if (fq.startsWith("{!frange")) return parseStockLevelFilter(fq, fail);
  const r = new Reader(fq);
  const tagMatch = r.match(TAG);
  if (!tagMatch) fail("expected a {!tag=…} local parameter");
  const tag = tagMatch![1]!;
  const exclude = r.eat("-");
  if (exclude ? !tag.endsWith("_tag_exclude") : !tag.endsWith("_tag")) {
    fail(`tag '${tag}' does not fit a${exclude ? "n exclude" : "n include"} filter`);
  }
  const field = r.match(FIELD);
  if (!field) fail(`expected a field name at position ${r.pos}`);
  if (!r.eat(":")) fail(`expected ':' at position ${r.pos}`);
  if (!r.eat("(")) fail(`expected '(' at position ${r.pos}`);
  const values: string[] = [];
  r.skipSpaces();
  values.push(r.phrase(fail));
  for (;;) {
    r.skipSpaces();
    if (r.eat(")")) break;
    if (!r.eat("OR")) fail(`expected 'OR' or ')' at position ${r.pos}`);
    const before = r.pos;
    r.skipSpaces();
    if (r.pos === before) fail(`expected a space after 'OR' at position ${r.pos}`);
    values.push(r.phrase(fail));
  }
  r.skipSpaces();
  if (!r.done) fail(`unexpected text after ')' at position ${r.pos}`);
  return { tag, field: field![0], type: exclude ? "exclude" : "include", values };
}

/**
 * The client's product lookup, `item_number_s:"<v>" OR id:"<v>"`: the two looked-up values
 * (the client sends the same one twice), or null when `q` has another shape.
 */
export function parseProductQuery(q: string): { itemNumber: string; id: string } | null {
  const r = new Reader(q.trim());
  const fail = (): never => {
    throw new Error("not a product query");
  };
  try {
    if (!r.eat("item_number_s:")) return null;
    const itemNumber = r.phrase(fail);
    r.skipSpaces();
    if (!r.eat("OR")) return null;
    r.skipSpaces();
    if (!r.eat("id:")) return null;
    const id = r.phrase(fail);
    r.skipSpaces();
    return r.done ? { itemNumber, id } : null;
  } catch {
    return null;
  }
}

/**
 * A BOM filter on one of a record's numbers: `item_number_s:"A/B 1"` or `asset_number_s:AST\-1` →
 * the field (without its suffix) and the number.
 */
export function parseBomNumberFilter(fq: string): { field: "item_number" | "asset_number"; value: string } {
  const fail = syntaxFailer(fq);
  const r = new Reader(fq.trim());
  const field = r.eat("item_number_s:") ? "item_number" : r.eat("asset_number_s:") ? "asset_number" : fail("expected item_number_s:<value> or asset_number_s:<value>");
  let value: string;
  if (r.text[r.pos] === '"') {
    value = r.phrase(fail);
  } else {
    value = "";
    while (!r.done && !/\s/.test(r.text[r.pos]!)) {
      const ch = r.text[r.pos++]!;
      if (ch === "\\") {
        if (r.done) fail("Lexical error: encountered <EOF> after '\\'");
        value += r.text[r.pos++]!;
      } else {
        value += ch;
      }
    }
    if (value === "") fail("expected a value after ':'");
  }
  r.skipSpaces();
  if (!r.done) fail(`unexpected text at position ${r.pos}`);
  return { field, value };
}

export interface SortClause {
  field: string;
  direction: "asc" | "desc";
}

/** `field asc, id asc` → clauses; Solr's message for a clause without a direction. */
export function parseSort(sort: string): SortClause[] {
  const clauses: SortClause[] = [];
  let offset = 0;
  for (const part of sort.split(",")) {
    const text = part.trim();
    const m = /^(\S+)\s+(asc|desc)$/i.exec(text);
    if (!m) {
      throw new SolrSyntaxError(
        `Can't determine a Sort Order (asc or desc) in sort spec '${sort}', pos=${offset + part.length}`,
        "org.apache.solr.common.SolrException",
      );
    }
    clauses.push({ field: m[1]!, direction: m[2]!.toLowerCase() as "asc" | "desc" });
    offset += part.length + 1;
  }
  return clauses;
}

/** Removes `{!…}` local params at the start of a `facet.field` value; returns `{ key, field }`. */
export function parseFacetFieldParam(value: string): { key: string; field: string } {
  const m = /^\{!([^}]*)\}(.*)$/s.exec(value.trim());
  if (!m) return { key: value.trim(), field: value.trim() };
  const field = m[2]!.trim();
  const key = /(?:^|\s)key=(\S+)/.exec(m[1]!)?.[1];
  return { key: key ?? field, field };
}

const { onHand: ON_HAND, minimum: MINIMUM } = STOCK_LEVEL_INPUTS;
/** The one function the client ranges over: 1 when the quantity on hand is below the minimum, both present. */
const BELOW_MINIMUM_FUNCTION = `if(and(exists(${ON_HAND}),exists(${MINIMUM}),lt(${ON_HAND},${MINIMUM})),1,0)`;
const FRANGE = /^\{!frange (l=1|u=0)(?: tag=([A-Za-z0-9_.-]+))?\}(.*)$/s;

/**
 * `{!frange l=1 [tag=…]}<below minimum>` (the items below minimum) or `{!frange u=0 [tag=…]}` (the
 * rest) as a filter on the stock level's value; null for another function or bounds. Solr would
 * run any function; the stand-in knows the one the client sends.
 */
export function parseStockLevelRange(text: string): { tag: string | null; type: "include" | "exclude" } | null {
  const m = FRANGE.exec(text);
  if (!m || m[3] !== BELOW_MINIMUM_FUNCTION) return null;
  return { tag: m[2] ?? null, type: m[1] === "l=1" ? "include" : "exclude" };
}

function parseStockLevelFilter(fq: string, fail: (why: string) => never): ParsedFilter {
  const range = parseStockLevelRange(fq);
  if (!range) return fail("the stand-in knows one function range: the stock level's");
  const tag = range.tag ?? fail("expected a tag local parameter");
  if (range.type === "exclude" ? !tag.endsWith("_tag_exclude") : !tag.endsWith("_tag")) fail(`tag '${tag}' does not fit the range`);
  return { tag, field: STOCK_LEVEL_FIELD, type: range.type, values: [BELOW_MINIMUM] };
}
