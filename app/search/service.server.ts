import { getConfig } from "~/config.server";
import { workerPeers } from "~/lib/peers.server";
import { CircuitBreaker, isBreakerChange, type BreakerSnapshot } from "./circuit-breaker";
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
import { BackendEngine } from "./engines/backend/backend-engine.server";
import { ensureCatalog } from "./engines/embedded/catalog-build.server";
import { EmbeddedEngine } from "./engines/embedded/embedded-engine.server";
import { FusionError } from "./engines/fusion/errors";
import { FusionEngine } from "./engines/fusion/fusion-engine.server";
import { searchConfigWith, type SearchConfig } from "./search-config";

export interface Answer<T> {
  value: T;
  /** The engine that answered. */
  engine: EngineName;
  /** True when the search platform is configured but the backup catalogue answered. */
  degraded: boolean;
  /** Time spent in the engine(s), for Server-Timing. */
  engineMs: number;
}

export interface ServiceStatus {
  serving: EngineName;
  /** `configurationError`: the platform's last answer to this process was 401, 403 or 404 (spec §8's text). */
  primary: { name: EngineName; breaker: BreakerSnapshot; configurationError?: string } | null;
  fallback: EngineName;
}

const CONFIGURATION_ERRORS: ReadonlySet<string> = new Set(["unauthorized", "forbidden", "not-found"]);

/** Failures that mean "the platform is out", as opposed to a misconfiguration to be shown as is. */
function isOutage(error: unknown): boolean {
  return error instanceof FusionError ? error.isOutage : false;
}

/**
 * Picks the engine for each call: the search platform when it is configured and its circuit is
 * closed, else the fallback (the product backend or the embedded catalogue). An outage of the
 * platform is answered by the fallback and marked as degraded; configuration errors (401, 403,
 * 404) are shown as they are, since the backup would only hide them.
 */
export class SearchService {
  readonly breaker: CircuitBreaker;
  private configurationError: string | null = null;

  constructor(
    readonly searchConfig: SearchConfig,
    private readonly engines: { primary: SearchEngine | null; fallback: SearchEngine },
    breaker?: CircuitBreaker,
  ) {
    this.breaker = breaker ?? new CircuitBreaker();
  }

  get fallbackEngine(): SearchEngine {
    return this.engines.fallback;
  }

  status(): ServiceStatus {
    const primary = this.engines.primary;
    const open = primary !== null && this.breaker.state === "open";
    return {
      serving: primary && !open ? primary.name : this.engines.fallback.name,
      primary: primary
        ? { name: primary.name, breaker: this.breaker.snapshot(), ...(this.configurationError ? { configurationError: this.configurationError } : {}) }
        : null,
      fallback: this.engines.fallback.name,
    };
  }

  /** The platform answered, so it is up; a configuration error is kept for the status until an answer without one. */
  private answered(error?: unknown) {
    this.breaker.success();
    this.configurationError = error instanceof FusionError && CONFIGURATION_ERRORS.has(error.kind) ? error.message : null;
  }

  private async run<T>(call: (engine: SearchEngine) => Promise<T>, context?: RequestContext): Promise<Answer<T>> {
    const { primary, fallback } = this.engines;
    const started = performance.now();
    let outage: unknown = null;
    if (primary && this.breaker.tryAcquire()) {
      try {
        const value = await call(primary);
        this.answered();
        return { value, engine: primary.name, degraded: false, engineMs: performance.now() - started };
      } catch (error) {
        if (context?.signal?.aborted) {
          this.breaker.release();
          throw error;
        }
        if (!isOutage(error)) {
          // The platform answered: it is up, even if the answer is an error.
          this.answered(error);
          throw error;
        }
        this.breaker.failure();
        outage = error;
        console.warn(`[${context?.requestId ?? "-"}] ${primary.name} failed, answering from ${fallback.name}: ${(error as Error).message}`);
      }
    }
    try {
      const value = await call(fallback);
      return { value, engine: fallback.name, degraded: primary !== null, engineMs: performance.now() - started };
    } catch (error) {
      // Both failed: the platform's own error says more than the backup's.
      throw outage ?? error;
    }
  }

  search(request: SearchRequest, context?: RequestContext): Promise<Answer<SearchResponse>> {
    return this.run((engine) => engine.search(request, context), context);
  }

  getProduct(idOrItemNumber: string, context?: RequestContext): Promise<Answer<Doc | null>> {
    return this.run((engine) => engine.getProduct(idOrItemNumber, context), context);
  }

  bom(request: BomRequest, context?: RequestContext): Promise<Answer<BomResponse>> {
    return this.run((engine) => engine.bom(request, context), context);
  }

  /**
   * Type-ahead never shows an error (spec §8). Its calls count for the circuit like any other, so
   * an outage found by one is answered from the backup and spares the next search the timeout;
   * any other failure gives no suggestions.
   */
  async suggest(prefix: string, count: number, context?: RequestContext): Promise<Answer<string[]>> {
    const started = performance.now();
    try {
      return await this.run((engine) => engine.suggest(prefix, count, context), context);
    } catch (error) {
      if (context?.signal?.aborted) throw error;
      console.warn(`[${context?.requestId ?? "-"}] no suggestions: ${(error as Error).message}`);
      return { value: [], engine: this.status().serving, degraded: false, engineMs: performance.now() - started };
    }
  }

  /**
   * Exports read from the platform when its circuit is closed, and count for the circuit like a
   * search. An outage before the first row is answered from the backup, like a page; after it,
   * the export fails, since it never switches engines mid-file.
   */
  async *cursor(request: CursorRequest, context?: RequestContext): AsyncIterable<Doc[]> {
    const { primary, fallback } = this.engines;
    if (primary === null || this.breaker.state !== "closed") {
      yield* fallback.cursor(request, context);
      return;
    }
    let delivered = false;
    try {
      for await (const batch of primary.cursor(request, context)) {
        if (!delivered) this.answered();
        delivered = true;
        yield batch;
      }
      if (!delivered) this.answered();
      return;
    } catch (error) {
      if (context?.signal?.aborted) throw error;
      if (!isOutage(error)) {
        this.answered(error);
        throw error;
      }
      this.breaker.failure();
      if (delivered) throw error;
      console.warn(`[${context?.requestId ?? "-"}] ${primary.name} failed before the first row of an export, reading it from ${fallback.name}: ${(error as Error).message}`);
    }
    yield* fallback.cursor(request, context);
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
    const config = getConfig();
    const searchConfig = searchConfigWith(config);
    const primary = config.fusion ? new FusionEngine(config.fusion, searchConfig) : null;
    const fallback = config.backendUrl
      ? new BackendEngine({ url: config.backendUrl, timeoutMs: config.fusion?.timeoutMs ?? 30_000 })
      : getEmbeddedEngine();
    let breaker: CircuitBreaker | undefined;
    if (config.fusion) {
      // Every worker of the cluster has its own breaker; they tell each other when they open or
      // close, so that one worker's finding spares the others' users the wait for the timeout.
      const peers = workerPeers();
      const shared = new CircuitBreaker({
        failureThreshold: config.fusion.breakerThreshold,
        cooldownMs: config.fusion.breakerCooldownMs,
        onChange: (change) => peers.publish("breaker", change),
      });
      peers.subscribe("breaker", (change) => {
        if (isBreakerChange(change)) shared.adopt(change);
      });
      breaker = shared;
    }
    service = new SearchService(searchConfig, { primary, fallback }, breaker);
  }
  return service;
}
