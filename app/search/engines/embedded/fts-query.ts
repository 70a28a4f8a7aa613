import { HL_POST, HL_PRE } from "../../engine";

/**
 * User text never reaches FTS5 as syntax: it is cut into word tokens (letters and digits, the same
 * characters the unicode61 tokenizer keeps) and each token becomes a quoted prefix term. So `"`,
 * `(`, `*`, `NEAR(`, `{!join}` or `AND` are plain words or nothing, never operators.
 */
const TOKEN = /[\p{L}\p{N}]+/gu;

/** Lower-case and strip diacritics, like unicode61 with remove_diacritics 2. */
export function normalizeToken(token: string): string {
  return token.normalize("NFD").replace(/\p{M}+/gu, "").toLowerCase();
}

export function queryTokens(text: string): string[] {
  const tokens = new Set<string>();
  for (const match of text.matchAll(TOKEN)) {
    const token = normalizeToken(match[0]);
    if (token) tokens.add(token);
  }
  return [...tokens];
}

/**
 * The FTS5 MATCH expression for a query: every token must match as a prefix (so `WR55` finds
 * `WR55X10942` and `pump` finds `pumps`). Returns null when the text holds no searchable token.
 */
export function matchExpression(tokens: readonly string[]): string | null {
  if (tokens.length === 0) return null;
  return tokens.map((t) => `"${t.replaceAll('"', '""')}"*`).join(" AND ");
}

/**
 * Wraps every word of `text` that starts with one of the tokens in HL_PRE/HL_POST.
 * Returns null when nothing matched, so callers only keep fields that have highlights.
 */
export function highlightText(text: string, tokens: readonly string[]): string | null {
  if (tokens.length === 0 || !text) return null;
  let marked = false;
  const out = text.replace(TOKEN, (word) => {
    const normal = normalizeToken(word);
    if (tokens.some((t) => normal.startsWith(t))) {
      marked = true;
      return `${HL_PRE}${word}${HL_POST}`;
    }
    return word;
  });
  return marked ? out : null;
}
