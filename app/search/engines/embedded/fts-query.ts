import { HL_POST, HL_PRE } from "../../engine";
import { positiveTerms, type QueryTree, type Term } from "../../query/query";

/**
 * Renders a query tree (search/query) as an FTS5 MATCH expression. User text never reaches FTS5
 * as syntax: every term is cut into word tokens (letters and digits, the characters the unicode61
 * tokenizer keeps) and each token is written as a quoted string, so `"`, `(`, `*`, `NEAR(`,
 * `{!join}` or `AND` are plain words or nothing, never operators. The operators in the expression
 * come from the tree alone.
 */
const TOKEN = /[\p{L}\p{N}]+/gu;

/** Lower-case and strip diacritics, like unicode61 with remove_diacritics 2. */
export function normalizeToken(token: string): string {
  return token.normalize("NFD").replace(/\p{M}+/gu, "").toLowerCase();
}

/** The tokens of a text in order, as the index holds them before stemming. */
export function ftsTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const token = normalizeToken(match[0]);
    if (token) tokens.push(token);
  }
  return tokens;
}

/** The distinct tokens of a text (kept for callers that only need the words). */
export function queryTokens(text: string): string[] {
  return [...new Set(ftsTokens(text))];
}

const quoted = (tokens: readonly string[]) => `"${tokens.join(" ").replaceAll('"', '""')}"`;

/**
 * One term: a phrase as an exact phrase; a word as a prefix (`WR55` finds `WR55X10942`, `refrig`
 * finds refrigerators). A word of several tokens (`MRO-8595736`, `<b>pump</b>`) needs all of them,
 * or the one joined token the catalogue indexes for part numbers (`mro8595736`), so a number is
 * found as written, without its separators, or scanned. Exclusions are never prefixes, so `-wall`
 * does not leave out "wallboard".
 */
function termExpression(term: Term, prefix: boolean): string | null {
  const tokens = ftsTokens(term.text);
  if (tokens.length === 0) return null;
  if (term.kind === "phrase") return quoted(tokens);
  const star = prefix ? "*" : "";
  if (tokens.length === 1) return `${quoted(tokens)}${star}`;
  const each = [...new Set(tokens)].map((t) => `${quoted([t])}${star}`).join(" AND ");
  return `((${each}) OR ${quoted([tokens.join("")])}${star})`;
}

function anyOf(terms: readonly Term[], prefix: boolean): string | null {
  const parts = terms.map((t) => termExpression(t, prefix)).filter((e): e is string => e !== null);
  if (parts.length === 0) return null;
  return parts.length === 1 ? parts[0]! : `(${parts.join(" OR ")})`;
}

export interface MatchExpressions {
  /** What every result must match; null when the tree asks for nothing (only exclusions, or match-all). */
  include: string | null;
  /** What no result may match; null when nothing is left out. */
  exclude: string | null;
}

export function matchExpressions(tree: QueryTree): MatchExpressions {
  const clauses = tree.all.map((clause) => anyOf(clause, true)).filter((e): e is string => e !== null);
  return { include: clauses.length > 0 ? clauses.join(" AND ") : null, exclude: anyOf(tree.none, false) };
}

/** One MATCH expression for the whole tree, when it has something to include. */
export function matchExpression(tree: QueryTree): string | null {
  const { include, exclude } = matchExpressions(tree);
  if (include === null) return null;
  return exclude === null ? include : `${include} NOT ${exclude}`;
}

/** The tokens results are highlighted with: those of the terms asked for, not those left out. */
export function highlightTokens(tree: QueryTree): string[] {
  return [...new Set(positiveTerms(tree).flatMap((t) => ftsTokens(t.text)))];
}

// The index stems words (porter); highlighting only needs to agree on the common inflections.
const INFLECTION = /(?:ies|es|s|ing|ed|er|ers)$/;
function highlightStem(token: string): string {
  if (token.length < 4 || /\p{N}/u.test(token)) return token;
  const stem = token.replace(INFLECTION, "");
  return stem.length >= 3 ? stem : token;
}

/**
 * Wraps every word of `text` that starts with one of the tokens (or its stem) in HL_PRE/HL_POST.
 * Returns null when nothing matched, so callers only keep fields that have highlights.
 */
export function highlightText(text: string, tokens: readonly string[]): string | null {
  if (tokens.length === 0 || !text) return null;
  const stems = tokens.map(highlightStem);
  let marked = false;
  const out = text.replace(TOKEN, (word) => {
    const normal = normalizeToken(word);
    if (stems.some((t) => normal.startsWith(t))) {
      marked = true;
      return `${HL_PRE}${word}${HL_POST}`;
    }
    return word;
  });
  return marked ? out : null;
}
