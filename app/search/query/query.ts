/**
 * The query language of `q` (DESIGN.md "URL contract"), the same on every engine: words (all must
 * match), `"a phrase"`, `-word` and `-"a phrase"` to leave out, `OR` between two words; anything
 * else is a plain word. Text is parsed once into a QueryTree and each engine renders the tree in
 * its own syntax, so user text never reaches an engine as syntax of its own.
 */

export type Term = { kind: "word"; text: string } | { kind: "phrase"; text: string };

/** Every clause must match (a clause matches when one of its terms does); no excluded term may. */
export interface QueryTree {
  all: Term[][];
  none: Term[];
}

/** Terms beyond this many are dropped: a query's work stays bounded whatever its length. */
export const MAX_TERMS = 32;

const SEARCHABLE = /[\p{L}\p{N}]/u;
const SPACE = /\s/u;

interface Item {
  term: Term;
  negated: boolean;
}

function lex(text: string): Item[] {
  const items: Item[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && SPACE.test(text[i]!)) i++;
    if (i >= n) break;
    let negated = false;
    if (text[i] === "-" && i + 1 < n && !SPACE.test(text[i + 1]!)) {
      negated = true;
      i++;
    }
    if (text[i] === '"') {
      const close = text.indexOf('"', i + 1);
      if (close > i) {
        const phrase = text.slice(i + 1, close).trim().split(/\s+/u).join(" ");
        items.push({ term: { kind: "phrase", text: phrase }, negated });
        i = close + 1;
        continue;
      }
      // An unclosed quote is not an operator: it is dropped and the rest reads as words.
      i++;
      continue;
    }
    const start = i;
    while (i < n && !SPACE.test(text[i]!)) i++;
    items.push({ term: { kind: "word", text: text.slice(start, i) }, negated });
  }
  return items;
}

const isOr = (item: Item | undefined) => item !== undefined && !item.negated && item.term.kind === "word" && item.term.text === "OR";

/** Parses query text into a tree; terms with nothing searchable in them (`*`, `!!`) are dropped. */
export function parseQuery(text: string): QueryTree {
  const items = lex(text).filter((item) => SEARCHABLE.test(item.term.text));
  const tree: QueryTree = { all: [], none: [] };
  let terms = 0;
  let joinNext = false;
  for (let k = 0; k < items.length && terms < MAX_TERMS; k++) {
    const item = items[k]!;
    const prev = items[k - 1];
    const next = items[k + 1];
    // OR is an operator only between two terms that are themselves neither exclusions nor OR.
    if (isOr(item) && prev && !prev.negated && !isOr(prev) && next && !next.negated && !isOr(next)) {
      joinNext = true;
      continue;
    }
    terms++;
    // A word OR that is not the operator is the plain word "or", also in the canonical text.
    if (isOr({ ...item, negated: false })) item.term = { kind: "word", text: "or" };
    if (item.negated) tree.none.push(item.term);
    else if (joinNext) tree.all[tree.all.length - 1]!.push(item.term);
    else tree.all.push([item.term]);
    joinNext = false;
  }
  return tree;
}

/** Spec §5: the main query and each search-within term, all required (the within terms join the tree). */
export function searchQuery(q: string, within: readonly string[] = []): QueryTree {
  const tree: QueryTree = { all: [], none: [] };
  let budget = MAX_TERMS;
  for (const text of [q, ...within]) {
    if (text.trim() === "*:*") continue;
    const part = parseQuery(text);
    for (const clause of part.all) {
      if (clause.length > budget) break;
      budget -= clause.length;
      tree.all.push(clause);
    }
    const none = part.none.slice(0, Math.max(0, budget));
    budget -= none.length;
    tree.none.push(...none);
  }
  return tree;
}

/**
 * True when some text was given but none of it is searchable (`"`, `!!`): such a query finds
 * nothing, as it always has, rather than everything.
 */
export function asksForNothing(q: string, within: readonly string[], tree: QueryTree): boolean {
  return isMatchAll(tree) && [q, ...within].some((t) => t.trim() !== "" && t.trim() !== "*:*" && t.trim() !== "*");
}

export function isMatchAll(tree: QueryTree): boolean {
  return tree.all.length === 0 && tree.none.length === 0;
}

function termText(term: Term): string {
  return term.kind === "phrase" ? `"${term.text}"` : term.text;
}

/** The tree as query text in its canonical form: `parseQuery(queryText(t))` equals `t`. */
export function queryText(tree: QueryTree): string {
  return [
    ...tree.all.map((clause) => clause.map(termText).join(" OR ")),
    ...tree.none.map((term) => `-${termText(term)}`),
  ].join(" ");
}

/** The positive words and phrases, in order: what results are highlighted with. */
export function positiveTerms(tree: QueryTree): Term[] {
  return tree.all.flat();
}

/**
 * The key a part number is compared by: letters and digits only, lower-cased, accents folded, so
 * `MRO-8595736`, `mro8595736` and `DC63 17530B` ⇔ `dc6317530b` compare equal.
 */
export function numberKey(text: string): string {
  return text.normalize("NFD").replace(/\p{M}+/gu, "").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

/**
 * The key of a query shaped like one item's number as written or scanned: at most 3 plain words
 * (no phrase, exclusion or OR), none of them a word of 4 or more letters only (`pump 120V` is a
 * search, `MRO 8595736` a number), holding a digit, 3 to 40 characters without separators.
 */
export function partNumberKeyOf(tree: QueryTree): string | null {
  if (tree.none.length > 0 || tree.all.length === 0 || tree.all.length > 3) return null;
  if (tree.all.some((clause) => clause.length !== 1 || clause[0]!.kind !== "word")) return null;
  const words = tree.all.map((clause) => clause[0]!.text);
  if (words.some((word) => /^\p{L}{4,}$/u.test(word))) return null;
  const key = numberKey(words.join(""));
  return key.length >= 3 && key.length <= 40 && /\p{N}/u.test(key) ? key : null;
}
