import { CircuitBreaker, type BreakerSnapshot } from "./circuit-breaker";
import { pause } from "~/lib/pause";
import type {
  BomDoc,
  BomNumber,
  BomRequest,
  BomResponse,
  BomType,
  CursorRequest,
  Doc,
  EngineHealth,
  EngineName,
  RequestContext,
  SearchEngine,
  SearchRequest,
  SearchResponse,
} from "./engine";
import { isOutage, SearchError } from "./errors";
import { pageRequestOf } from "./request";
import type { SearchConfig } from "./search-config";

export interface Answer<T> {
  value: T;
  /** The engine that answered. */
  engine: EngineName;
  /** True when the search platform is configured but the backup catalogue answered. */
  degraded: boolean;
  /** Time spent in the engine(s), for Server-Timing. */
  engineMs: number;
}

/**
 * Which engine a call may be answered by when it must agree with an earlier answer (an export with
 * the page it was asked from, an item's neighbours with the item): `platform` only, or the `backup`
 * only. Absent, the platform answers and the backup stands in for it.
 */
export type Source = "platform" | "backup";

/**
 * The platform could not answer a call that only it may answer (Source `platform`): the caller
 * decides what the user is offered instead. `platformError` is the platform's own failure.
 */
export class PlatformUnavailable extends SearchError {
  override name = "PlatformUnavailable";
  constructor(readonly platformError: unknown) {
    super(platformError instanceof SearchError ? platformError.message : "The search platform is not answering", "outage");
    if (platformError instanceof SearchError) {
      this.userMessage = platformError.userMessage;
      this.detail = platformError.detail;
    }
  }
}

export interface ServiceStatus {
  serving: EngineName;
  /** `configurationError`: the platform's last answer to this process was 401, 403 or 404 (spec §8's text). */
  primary: { name: EngineName; breaker: BreakerSnapshot; configurationError?: string } | null;
  fallback: EngineName;
}

/** Health checks of the platform are answered from the last one for this long, so probes never flood it. */
export const PLATFORM_HEALTH_CACHE_MS = 5_000;

/** BOM records asked for at once by `bomCursor`, and the pause between two asks. */
const BOM_PAGE_SIZE = 1000;
const BOM_PAGE_PAUSE_MS = 100;

/**
 * One line per platform failure, for operators: what failed and why (the engine's diagnosis: the
 * status or transport code, the address, the time taken), and what the user got instead.
 */
function consoleFailure(failure: PlatformFailure): void {
  console.warn(`[${failure.requestId ?? "-"}] ${failure.platform} failed: ${JSON.stringify(failure.why)}; ${failure.outcome}`);
}

export interface PlatformFailure {
  platform: EngineName;
  why: string;
  outcome: string;
  requestId?: string;
}

/** What the service tells whoever watches it (the composition root wires the log and the metrics). */
export interface ServiceHooks {
  /** A platform failure, with what the user got instead; default: one line on the console. */
  platformFailure?(failure: PlatformFailure): void;
  /** An answer the backup gave while a platform is configured: it failed, or its circuit is open. */
  backupAnswer?(why: "failed" | "breaker_open"): void;
}

/**
 * Picks the engine for each call: the search platform when it is configured and its circuit is
 * closed, else the fallback (the product backend or the embedded catalogue). An outage of the
 * platform and a configuration error (401, 403, 404: decision 013) are answered by the fallback,
 * marked as degraded, the configuration error's text kept for the status; a query the platform
 * refused (400) is thrown as it is, since the backup would not help.
 */
export class SearchService {
  readonly breaker: CircuitBreaker;
  private configurationError: string | null = null;
  private platformHealth: { at: number; check: Promise<EngineHealth>; result?: EngineHealth } | null = null;

  constructor(
    readonly searchConfig: SearchConfig,
    private readonly engines: { primary: SearchEngine | null; fallback: SearchEngine },
    breaker?: CircuitBreaker,
    private readonly hooks: ServiceHooks = {},
  ) {
    this.breaker = breaker ?? new CircuitBreaker();
  }

  private logPlatformFailure(platform: EngineName, error: unknown, outcome: string, context?: RequestContext): void {
    const why = error instanceof SearchError ? (error.detail ?? error.message) : String(error);
    (this.hooks.platformFailure ?? consoleFailure)({ platform, why, outcome, ...(context?.requestId ? { requestId: context.requestId } : {}) });
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

  /**
   * The platform's own health check (core-search §7: its root, then a one-row query), at most once
   * per PLATFORM_HEALTH_CACHE_MS; null without a platform. It does not count for the circuit.
   */
  platformStatus(now = Date.now()): Promise<EngineHealth> | null {
    const { primary } = this.engines;
    if (!primary) return null;
    // An open circuit already says the platform is down; asking it again would only wait.
    if (this.breaker.state === "open") return Promise.resolve({ ok: false, detail: "not asked: the circuit is open" });
    if (!this.platformHealth || now - this.platformHealth.at >= PLATFORM_HEALTH_CACHE_MS) {
      const entry: NonNullable<typeof this.platformHealth> = {
        at: now,
        check: primary.health().catch((error: unknown): EngineHealth => ({ ok: false, detail: error instanceof Error ? error.message : String(error) })),
      };
      void entry.check.then((result) => (entry.result = result));
      this.platformHealth = entry;
    }
    return this.platformHealth.check;
  }

  /** A cached health answer that calls, or answers, contradict is asked again next time. */
  private contradicted(ok: boolean): void {
    if (this.platformHealth?.result && this.platformHealth.result.ok !== ok) this.platformHealth = null;
  }

  /** The platform answered as it should, so it is up and configured. */
  private answered() {
    this.breaker.success();
    this.configurationError = null;
    this.contradicted(true);
  }

  /**
   * The one fallback policy: the platform when its circuit lets the call through, else the
   * backup. An outage or a configuration error (401, 403, an unknown profile) is answered by the
   * backup and counts against the circuit, so people go on working while an operator fixes the
   * platform; the configuration error's text is kept for the status. A request the platform
   * refused (a 400) is thrown as it is: the backup would not help. A call the user went away from
   * tells nothing.
   */
  private async withFallback<T>(call: (engine: SearchEngine) => Promise<T>, context?: RequestContext, source?: Source): Promise<Answer<T>> {
    const { primary, fallback } = this.engines;
    const started = performance.now();
    let outage: unknown = null;
    if (primary && source !== "backup" && this.breaker.tryAcquire()) {
      try {
        const value = await call(primary);
        this.answered();
        return { value, engine: primary.name, degraded: false, engineMs: performance.now() - started };
      } catch (error) {
        if (context?.signal?.aborted) {
          this.breaker.release();
          throw error;
        }
        const configuration = error instanceof SearchError && error.kind === "configuration";
        if (!isOutage(error) && !configuration) {
          this.answered();
          throw error;
        }
        this.breaker.failure();
        this.configurationError = configuration ? error.message : null;
        this.contradicted(false);
        outage = error;
        if (source === "platform") {
          this.logPlatformFailure(primary.name, error, "answered with an error (only the platform may answer this call)", context);
          throw new PlatformUnavailable(error);
        }
      }
    }
    // Its circuit is open (or its one trial is out): the platform is not asked.
    if (primary && source === "platform") throw new PlatformUnavailable(new SearchError("The search platform is not answering (its circuit is open)", "outage"));
    try {
      const value = await call(fallback);
      if (outage) this.logPlatformFailure(primary!.name, outage, `answered from the backup (${fallback.name})`, context);
      if (primary && source !== "backup") this.hooks.backupAnswer?.(outage ? "failed" : "breaker_open");
      return { value, engine: fallback.name, degraded: primary !== null, engineMs: performance.now() - started };
    } catch (error) {
      // Both failed: the platform's own error says more than the backup's.
      if (outage) this.logPlatformFailure(primary!.name, outage, `the backup (${fallback.name}) failed too: answered with an error`, context);
      throw outage ?? error;
    }
  }

  search(request: SearchRequest, context?: RequestContext, source?: Source): Promise<Answer<SearchResponse>> {
    return this.withFallback((engine) => engine.search(request, context), context, source);
  }

  getProduct(idOrItemNumber: string, context?: RequestContext): Promise<Answer<Doc | null>> {
    return this.withFallback((engine) => engine.getProduct(idOrItemNumber, context), context);
  }

  bom(request: BomRequest, context?: RequestContext): Promise<Answer<BomResponse>> {
    return this.withFallback((engine) => engine.bom(request, context), context);
  }

  /** Items whose item or manufacturer part number `text` is (engine.findByNumber), at most `limit`. */
  findByNumber(text: string, limit: number, context?: RequestContext): Promise<Answer<Doc[]>> {
    return this.withFallback(async (engine) => {
      if (engine.findByNumber) return engine.findByNumber(text, limit, context);
      return (await engine.search(pageRequestOf({ q: text, within: [], filters: [], sort: null }, 0, limit + 1), context)).docs;
    }, context);
  }

  /**
   * Type-ahead never shows an error (spec §8). Its calls count for the circuit like any other, so
   * an outage found by one is answered from the backup and spares the next search the timeout;
   * any other failure gives no suggestions.
   */
  async suggest(prefix: string, count: number, context?: RequestContext): Promise<Answer<string[]>> {
    const started = performance.now();
    try {
      return await this.withFallback((engine) => engine.suggest(prefix, count, context), context);
    } catch (error) {
      if (context?.signal?.aborted) throw error;
      console.warn(`[${context?.requestId ?? "-"}] no suggestions: ${(error as Error).message}`);
      return { value: [], engine: this.status().serving, degraded: false, engineMs: performance.now() - started };
    }
  }

  /**
   * Exports go through the same policy for their first batch: an outage before the first row is
   * read from the backup, like a page, unless `source` fixes the engine. After it the export fails,
   * since it never switches engines mid-file; a later outage still counts against the circuit.
   */
  async *cursor(request: CursorRequest, context?: RequestContext, source?: Source): AsyncIterable<Doc[]> {
    const opened = await this.withFallback(async (engine) => {
      const batches = engine.cursor(request, context)[Symbol.asyncIterator]();
      return { batches, first: await batches.next() };
    }, context, source);
    const { batches, first } = opened.value;
    if (first.done) return;
    yield first.value;
    try {
      for (let next = await batches.next(); !next.done; next = await batches.next()) yield next.value;
    } catch (error) {
      if (opened.engine === this.engines.primary?.name && !context?.signal?.aborted && isOutage(error)) this.breaker.failure();
      throw error;
    } finally {
      await batches.return?.();
    }
  }

  /** One page of a search as a cursor of one batch (an export of the page shown), answered as `search` answers it. */
  async *pageCursor(request: SearchRequest, context?: RequestContext, source?: Source): AsyncIterable<Doc[]> {
    yield (await this.search(request, context, source)).value.docs;
  }

  /**
   * Every BOM record of a number (an item's uses, or a head's lines; of one type, or all) up to
   * `limit`, in pages of `pageSize`, each answered as `bom` answers it; a short pause between pages,
   * as the engines' cursors make, so one download cannot keep the platform busy.
   */
  async *bomCursor(
    request: BomNumber & { type?: BomType | undefined; limit: number },
    context: RequestContext = {},
    { pageSize = BOM_PAGE_SIZE, pauseMs = BOM_PAGE_PAUSE_MS } = {},
  ): AsyncIterable<BomDoc[]> {
    const { limit, ...number } = request;
    for (let start = 0; start < limit; start += pageSize) {
      if (start > 0 && pauseMs > 0) await pause(pauseMs, context.signal);
      const rows = Math.min(pageSize, limit - start);
      const { docs, total } = (await this.bom({ ...number, start, rows }, context)).value;
      if (docs.length > 0) yield docs;
      if (docs.length < rows || start + rows >= total) return;
    }
  }
}
