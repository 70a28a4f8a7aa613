import type { Doc, SearchRequest, SearchResponse } from "../../app/search/engine";
import { jumpTarget } from "../../app/search/query/number-jump";
import { numberKey, parseQuery, partNumberKeyOf } from "../../app/search/query/query";
import { FAMILIES, type Family, type Judgment } from "./judgments";

/** What the evaluation needs of an engine: a search, and the look-up a scanned number opens an item by. */
export interface JudgedEngine {
  search(request: SearchRequest): Promise<SearchResponse>;
  findByNumber?(text: string, limit: number): Promise<Doc[]>;
}

export interface Outcome {
  judgment: Judgment;
  at1: boolean;
  at3: boolean;
  zero: boolean;
  /** Time of what a search page asks the engine for this query (the number look-up, then the search). */
  ms: number;
}

export interface FamilyFigures {
  family: Family;
  queries: number;
  success1: number;
  success3: number;
  zeroRate: number;
}

const TOKEN = /[\p{L}\p{N}]+/gu;
const tokens = (text: string) => [...text.normalize("NFD").replace(/\p{M}+/gu, "").toLowerCase().matchAll(TOKEN)].map((m) => m[0]);

function textTokens(doc: Doc): string[] {
  return tokens([doc.item_description_t, doc.attribute_org_notes_t, doc.manufacturer_s].filter((v) => typeof v === "string").join(" "));
}

/** A word or its inflections: the token starts with the word (`pump` → pumps, pumping). */
const hasWord = (words: string[], word: string) => words.some((t) => t.startsWith(word));

/** Whether a result is relevant to a judgment. */
export function isRelevant(judgment: Judgment, doc: Doc | undefined): boolean {
  if (!doc) return false;
  if ("item" in judgment) return doc.item_number_s === judgment.item;
  if ("mfrPartNumber" in judgment) {
    const value = doc.attribute_manufacturer_part_number_s;
    return typeof value === "string" && numberKey(value) === numberKey(judgment.mfrPartNumber);
  }
  if ("itemPrefix" in judgment) return String(doc.item_number_s).toLowerCase().startsWith(judgment.itemPrefix.toLowerCase());
  const words = textTokens(doc);
  if (!judgment.words.every((w) => hasWord(words, w))) return false;
  if ((judgment.without ?? []).some((w) => hasWord(words, w))) return false;
  return (judgment.phrases ?? []).every((phrase) => {
    const wanted = tokens(phrase);
    return words.some((_, i) => wanted.every((w, k) => words[i + k] === w));
  });
}

export const REQUEST: Omit<SearchRequest, "q"> = {
  within: [],
  filters: [],
  sort: null,
  start: 0,
  rows: 20,
  facetFields: ["org_code_s", "category_s", "manufacturer_s", "attribute_status_s", "attribute_item_type_s"],
  highlight: true,
};

/** Runs one judged query the way the search page does, and judges the answer. */
export async function judge(engine: JudgedEngine, judgment: Judgment): Promise<Outcome> {
  const started = performance.now();
  const key = partNumberKeyOf(parseQuery(judgment.q));
  const found = key && engine.findByNumber ? await engine.findByNumber(judgment.q, 2) : [];
  const response = await engine.search({ ...REQUEST, q: judgment.q });
  const ms = performance.now() - started;
  const zero = response.total === 0;
  if (judgment.family === "scanned") {
    // A scanned number succeeds only when it opens its item, not as a one-row list.
    const opened = key !== null && jumpTarget(found, key)?.item_number_s === ("item" in judgment ? judgment.item : null);
    return { judgment, at1: opened, at3: opened, zero, ms };
  }
  let docs = response.docs;
  if ("correction" in judgment && judgment.correction) {
    // A misspelling succeeds when the page offers the right correction and the correction finds the items.
    if (response.suggestions[0] !== judgment.correction) return { judgment, at1: false, at3: false, zero, ms };
    docs = (await engine.search({ ...REQUEST, q: judgment.correction })).docs;
  }
  return { judgment, at1: isRelevant(judgment, docs[0]), at3: docs.slice(0, 3).some((d) => isRelevant(judgment, d)), zero, ms };
}

export async function judgeAll(engine: JudgedEngine, judgments: readonly Judgment[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const judgment of judgments) outcomes.push(await judge(engine, judgment));
  return outcomes;
}

export function figuresByFamily(outcomes: readonly Outcome[]): FamilyFigures[] {
  return FAMILIES.map((family) => {
    const mine = outcomes.filter((o) => o.judgment.family === family);
    const rate = (pick: (o: Outcome) => boolean) => (mine.length === 0 ? 0 : mine.filter(pick).length / mine.length);
    return { family, queries: mine.length, success1: rate((o) => o.at1), success3: rate((o) => o.at3), zeroRate: rate((o) => o.zero) };
  });
}
