import { getConfig } from "~/config.server";
import type {
  BomRequest,
  BomResponse,
  CursorRequest,
  Doc,
  EngineName,
  RequestContext,
  SearchEngine,
  SearchRequest,
  SearchResponse,
} from "./engine";
import { ensureCatalog } from "./engines/embedded/catalog-build.server";
import { EmbeddedEngine } from "./engines/embedded/embedded-engine.server";
import { DEFAULT_SEARCH_CONFIG, type SearchConfig } from "./search-config";

export interface Answer<T> {
  value: T;
  /** The engine that answered. */
  engine: EngineName;
  /** True when the search platform failed or is off and the backup catalogue answered. */
  degraded: boolean;
  /** Time spent in the engine, for Server-Timing. */
  engineMs: number;
}

/**
 * Picks the engine for each call. Today that is the embedded catalogue; the search platform
 * registers here as the primary engine and the embedded one stays as the fallback.
 */
export class SearchService {
  constructor(
    readonly searchConfig: SearchConfig,
    private readonly engines: { primary: SearchEngine | null; fallback: SearchEngine },
  ) {}

  get fallbackEngine(): SearchEngine {
    return this.engines.fallback;
  }

  private async run<T>(call: (engine: SearchEngine) => Promise<T>): Promise<Answer<T>> {
    const engine = this.engines.primary ?? this.engines.fallback;
    const started = performance.now();
    const value = await call(engine);
    return { value, engine: engine.name, degraded: false, engineMs: performance.now() - started };
  }

  search(request: SearchRequest, context?: RequestContext): Promise<Answer<SearchResponse>> {
    return this.run((engine) => engine.search(request, context));
  }

  getProduct(idOrItemNumber: string, context?: RequestContext): Promise<Answer<Doc | null>> {
    return this.run((engine) => engine.getProduct(idOrItemNumber, context));
  }

  bom(request: BomRequest, context?: RequestContext): Promise<Answer<BomResponse>> {
    return this.run((engine) => engine.bom(request, context));
  }

  suggest(prefix: string, count: number, context?: RequestContext): Promise<Answer<string[]>> {
    return this.run((engine) => engine.suggest(prefix, count, context));
  }

  cursor(request: CursorRequest, context?: RequestContext): AsyncIterable<Doc[]> {
    return (this.engines.primary ?? this.engines.fallback).cursor(request, context);
  }
}

let service: SearchService | undefined;
let embedded: EmbeddedEngine | undefined;

/** The embedded catalogue, built from sample data on first use when the file is missing. */
export function getEmbeddedEngine(): EmbeddedEngine {
  if (!embedded) {
    const config = getConfig();
    ensureCatalog(config.catalogDb, config.sampleItems);
    embedded = new EmbeddedEngine(config.catalogDb);
  }
  return embedded;
}

export function getSearchService(): SearchService {
  if (!service) {
    const engine = getEmbeddedEngine();
    service = new SearchService(DEFAULT_SEARCH_CONFIG, { primary: null, fallback: engine });
  }
  return service;
}
