import { distance } from "fastest-levenshtein";
import { parseQuery, queryText, type QueryTree, type Term } from "../../query/query";
import { normalizeToken } from "./fts-query";

/**
 * "Did you mean" without the search platform (Solr's spell-check collation, core-search §7): the
 * catalogue's words with the number of items each occurs in; an unknown word of a query is
 * replaced by the nearest known word (fewest edits, then most items), and the whole corrected
 * query is offered only when it finds more.
 */
export interface Vocabulary {
  docs: Map<string, number>;
  /** Words by length, for a scan of the lengths within the edit distance only. */
  byLength: Map<number, string[]>;
}

export function buildVocabulary(entries: Iterable<readonly [string, number]>): Vocabulary {
  const docs = new Map<string, number>();
  const byLength = new Map<number, string[]>();
  for (const [term, count] of entries) {
    docs.set(term, count);
    const list = byLength.get(term.length) ?? [];
    list.push(term);
    byLength.set(term.length, list);
  }
  return { docs, byLength };
}

/**
 * Edits allowed for a word of this length. Three letters get one ("pmp" → "pump", issue 29): their
 * many neighbours are ranked by how many items hold them, and a correction is offered only when
 * the corrected query finds more. Shorter words are codes and units, never corrected.
 */
function maxEdits(length: number): number {
  return length < 3 ? 0 : length < 8 ? 1 : 2;
}

/** One swap of neighbouring letters (`drian` → `drain`): two edits, but one slip of the fingers. */
function isTransposition(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i + 1 < a.length && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

/** Known words within the allowed edits of `word`, best first; empty for a known word. */
function corrections(word: string, vocabulary: Vocabulary, limit = 3): string[] {
  if (vocabulary.docs.has(word)) return [];
  const edits = maxEdits(word.length);
  if (edits === 0) return [];
  const found: { term: string; edits: number; docs: number }[] = [];
  for (let length = word.length - edits; length <= word.length + edits; length++) {
    for (const term of vocabulary.byLength.get(length) ?? []) {
      const d = length === word.length && isTransposition(word, term) ? 1 : distance(word, term);
      if (d <= edits) found.push({ term, edits: d, docs: vocabulary.docs.get(term)! });
    }
  }
  found.sort((a, b) => a.edits - b.edits || b.docs - a.docs || (a.term < b.term ? -1 : 1));
  return found.slice(0, limit).map((f) => f.term);
}

/** A word worth correcting: letters only (part numbers and codes are never "corrected"). */
function correctable(term: Term): string | null {
  if (term.kind !== "word") return null;
  const word = normalizeToken(term.text);
  return /^\p{L}+$/u.test(word) ? word : null;
}

const MAX_TRIES = 6;

/**
 * The corrected query (canonical query text), or null: each unknown word gets its best
 * correction, then second choices one word at a time, until `accept` (the corrected query finds
 * more) holds; at most MAX_TRIES queries are tried.
 */
export function collate(q: string, vocabulary: Vocabulary, accept: (corrected: string) => boolean): string | null {
  const tree = parseQuery(q);
  const options = tree.all.map((clause) =>
    clause.map((term) => {
      const word = correctable(term);
      return word ? corrections(word, vocabulary) : [];
    }),
  );
  const wrong = options.flatMap((clause, c) => clause.map((list, t) => ({ c, t, list }))).filter((o) => o.list.length > 0);
  if (wrong.length === 0) return null;
  const choice = (picks: Map<string, number>): string => {
    const corrected: QueryTree = {
      all: tree.all.map((clause, c) =>
        clause.map((term, t) => {
          const list = options[c]![t]!;
          const pick = picks.get(`${c}:${t}`) ?? 0;
          return list.length > 0 ? { kind: "word" as const, text: list[Math.min(pick, list.length - 1)]! } : term;
        }),
      ),
      none: tree.none,
    };
    return queryText(corrected);
  };
  const tries: string[] = [choice(new Map())];
  for (const { c, t, list } of wrong) for (let pick = 1; pick < list.length; pick++) tries.push(choice(new Map([[`${c}:${t}`, pick]])));
  for (const candidate of [...new Set(tries)].slice(0, MAX_TRIES)) if (accept(candidate)) return candidate;
  return null;
}
