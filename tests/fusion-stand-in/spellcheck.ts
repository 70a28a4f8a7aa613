import fs from "node:fs";
import Database from "better-sqlite3";

/**
 * A small spell checker over the catalogue's description vocabulary, enough to drive "Did you
 * mean …": unknown words are replaced by the closest vocabulary word within two edits.
 */

const TOKEN = /[\p{L}\p{N}]+/gu;
export const MAX_EDITS = 2;
const MIN_WORD_LENGTH = 3;

/** Lower case without diacritics, as the catalogue's full-text tokenizer folds words. */
export function normalizeWord(word: string): string {
  return word.normalize("NFD").replace(/\p{M}+/gu, "").toLowerCase();
}

/** Levenshtein distance, giving up (returning max + 1) once it must exceed `max`. */
export function levenshtein(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    previous = current;
  }
  return previous[b.length]!;
}

export interface Vocabulary {
  /** Word → number of items whose description holds it. */
  freq: Map<string, number>;
}

/** The vocabulary of some descriptions: each word with the number of descriptions holding it. */
export function vocabularyOf(texts: Iterable<string>): Vocabulary {
  const freq = new Map<string, number>();
  for (const text of texts) {
    const seen = new Set<string>();
    for (const m of String(text).matchAll(TOKEN)) {
      const word = normalizeWord(m[0]);
      if (word.length < MIN_WORD_LENGTH || /^\p{N}+$/u.test(word) || seen.has(word)) continue;
      seen.add(word);
      freq.set(word, (freq.get(word) ?? 0) + 1);
    }
  }
  return { freq };
}

/** Reads the description words of a catalogue file. */
export function loadVocabulary(catalogPath: string): Vocabulary {
  const db = new Database(catalogPath, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare("SELECT item_description_t FROM items WHERE item_description_t IS NOT NULL").pluck();
    return vocabularyOf(rows.iterate() as Iterable<string>);
  } finally {
    db.close();
  }
}

export class VocabularyCache {
  private cached?: { id: string; vocabulary: Vocabulary };
  constructor(private readonly catalogPath: string) {}

  get(): Vocabulary {
    const stat = fs.statSync(this.catalogPath);
    const id = `${stat.ino}:${stat.mtimeMs}:${stat.size}`;
    if (this.cached?.id !== id) this.cached = { id, vocabulary: loadVocabulary(this.catalogPath) };
    return this.cached.vocabulary;
  }
}

export interface Candidate {
  word: string;
  freq: number;
  distance: number;
}

/** Vocabulary words within MAX_EDITS of `word`: closest first, then most frequent, then alphabetical. */
export function candidates(word: string, vocabulary: Vocabulary, count: number): Candidate[] {
  const normal = normalizeWord(word);
  if (normal.length < MIN_WORD_LENGTH) return [];
  const found: Candidate[] = [];
  for (const [entry, freq] of vocabulary.freq) {
    if (entry === normal) continue;
    const distance = levenshtein(normal, entry, MAX_EDITS);
    if (distance <= MAX_EDITS) found.push({ word: entry, freq, distance });
  }
  found.sort((a, b) => a.distance - b.distance || b.freq - a.freq || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
  return found.slice(0, Math.max(1, count));
}

export interface Misspelling {
  original: string;
  startOffset: number;
  endOffset: number;
  suggestions: Candidate[];
}

/**
 * The words of `text` for which `isKnown` says no, each with its candidates (possibly none), and
 * the collation: `text` with every misspelt word that has a candidate replaced by the best one.
 */
export async function check(
  text: string,
  vocabulary: Vocabulary,
  isKnown: (word: string) => Promise<boolean>,
  count: number,
): Promise<{ misspellings: Misspelling[]; collation: string | null }> {
  const misspellings: Misspelling[] = [];
  const checked = new Map<string, boolean>();
  for (const m of text.matchAll(TOKEN)) {
    const word = m[0];
    // Upper-case AND / OR / NOT are query operators (the client joins search-within terms with AND).
    if (word === "AND" || word === "OR" || word === "NOT") continue;
    const normal = normalizeWord(word);
    if (normal.length < MIN_WORD_LENGTH || /^\p{N}+$/u.test(normal)) continue;
    let known = checked.get(normal);
    if (known === undefined) {
      known = vocabulary.freq.has(normal) || (await isKnown(normal));
      checked.set(normal, known);
    }
    if (known) continue;
    misspellings.push({ original: word, startOffset: m.index, endOffset: m.index + word.length, suggestions: candidates(word, vocabulary, count) });
  }
  let collation = "";
  let at = 0;
  let changed = false;
  for (const miss of misspellings) {
    const best = miss.suggestions[0];
    if (!best) continue;
    collation += text.slice(at, miss.startOffset) + best.word;
    at = miss.endOffset;
    changed = true;
  }
  collation += text.slice(at);
  return { misspellings, collation: changed ? collation : null };
}
