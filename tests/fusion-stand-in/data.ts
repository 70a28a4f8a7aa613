/**
 * Where the stand-in's answers come from: the recorded documents (recorded.ts), or a sample
 * catalogue through the embedded engine.
 */
import type { BomDoc, BomRequest, Doc } from "../../app/search/engine";
import { EmbeddedEngine } from "../../app/search/engines/embedded/embedded-engine.server";
import { RecordedIndex, type RecordedAnswer, type RecordedSearch } from "./recorded";
import { freeText } from "./solr-answers";
import { VocabularyCache, type Vocabulary } from "./spellcheck";

/** Where the answers come from: the recorded documents, or a sample catalogue. Queries arrive as the lucene text the portal sent. */
export interface StandInData {
  search(request: RecordedSearch): Promise<RecordedAnswer>;
  getProduct(idOrItemNumber: string): Promise<Doc | null>;
  suggest(prefix: string, count: number): Promise<string[]>;
  bom(request: BomRequest): Promise<{ docs: BomDoc[]; total: number }>;
  vocabulary(): Vocabulary;
  close(): void;
}

export function recordedData(): StandInData {
  const index = new RecordedIndex();
  return {
    search: async (request) => index.search(request),
    getProduct: async (id) => index.getProduct(id),
    suggest: async (prefix, count) => index.suggest(prefix, count),
    bom: async (request) => index.bom(request),
    vocabulary: () => index.vocabulary,
    close: () => undefined,
  };
}

/** A sample catalogue through the embedded engine, which reads the query language the lucene text is turned back into. */
export function catalogueData(catalogPath: string): StandInData {
  const engine = new EmbeddedEngine(catalogPath);
  engine.open(); // fail now, not on the first request, when the catalogue is missing
  const vocabulary = new VocabularyCache(catalogPath);
  return {
    async search(request) {
      const result = await engine.search({ ...request, q: freeText(request.q), within: [] });
      return { ...result, facets: new Map(result.facets.map((f) => [f.field, f.values])) };
    },
    getProduct: (id) => engine.getProduct(id),
    suggest: (prefix, count) => engine.suggest(prefix, count),
    bom: (request) => engine.bom(request),
    vocabulary: () => vocabulary.get(),
    close: () => engine.close(),
  };
}
