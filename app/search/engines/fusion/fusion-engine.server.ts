import { bomKeyOf, toDoc } from "../../engine";
import type {
  BomRequest,
  BomResponse,
  BomSortField,
  CursorRequest,
  Doc,
  EngineHealth,
  RequestContext,
  SearchEngine,
  SearchRequest,
  SearchResponse,
} from "../../engine";
import type { FusionSettings } from "../../fusion-settings";
import type { SearchConfig } from "../../search-config";
import { FusionError, MESSAGES } from "./fusion-errors";
import { fusionGet, fusionStatus, type FusionHttpOptions } from "./fusion-http.server";
import { boundDoc, parseSearchResponse, parseSolrBody, parseSuggestions, toBomDoc } from "./parse-response.server";
import { buildQuery, CURSOR_STEPS, numberQuery, queryStep, solrFacetField, solrPhrase } from "./query-builder";

/**
 * The asset-BOM profile is a plain query profile: it sorts on index fields. Text is searched in
 * `_t` fields, which Solr cannot sort on, so the description sorts on its string copy; the
 * quantity is a number.
 */
export const ASSET_BOM_SORT_FIELDS: Readonly<Record<BomSortField, string>> = {
  org_code: "org_code_s",
  item_number: "item_number_s",
  asset_number: "asset_number_s",
  asset_serial_number: "asset_serial_number_s",
  asset_group: "asset_group_s",
  asset_description: "asset_description_s",
  quantity: "quantity_i",
};

/** Less time than this left of a page's deadline: the call is not sent. */
const MIN_CALL_MS = 50;

/** Spec §7's limits for the two calls of the health check. */
const HEALTH_ROOT_TIMEOUT_MS = 5_000;
const HEALTH_QUERY_TIMEOUT_MS = 10_000;

/** Spec §9: pause between cursor batches, so a long export does not monopolise the cluster. */
export const CURSOR_PAUSE_MS = 100;

/** Waits, or stops waiting when the request is aborted; the abort listener never outlives the wait. */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });

/** Solr's answer to query text its parser cannot read (HTTP 400, org.apache.solr.search.SyntaxError). */
function isQuerySyntaxError(error: unknown): boolean {
  return error instanceof FusionError && error.httpStatus === 400 && /SyntaxError|Cannot parse/.test(error.message);
}

/**
 * Asks with the user's text as it is, and when the pipeline's parser refuses it (Solr's standard
 * parser and `1/2" valve`), once more as plain words, if that changes the text.
 */
async function askPlainOnRefusal<T>(request: SearchRequest, config: SearchConfig, ask: (plainText: boolean) => Promise<T>): Promise<{ value: T; plainText: boolean }> {
  try {
    return { value: await ask(false), plainText: false };
  } catch (error) {
    const q = (plainText: boolean) => buildQuery(request, config, { plainText }, [queryStep]).get("q");
    if (!isQuerySyntaxError(error) || q(true) === q(false)) throw error;
    return { value: await ask(true), plainText: true };
  }
}

/** `Failed to fetch batch {n}: {reason}`, with HTTP failures as `HTTP {status}: {statusText}` (spec §8). */
function batchError(batch: number, error: unknown): FusionError {
  if (!(error instanceof FusionError)) {
    const failed = new FusionError("failed", `Failed to fetch batch ${batch}: ${error instanceof Error ? error.message : String(error)}`);
    failed.userMessage = `Failed to fetch batch ${batch}: ${MESSAGES.failed}`;
    return failed;
  }
  const reason = error.reason === "http" ? `HTTP ${error.httpStatus}: ${error.statusText || "Error"}` : error.message;
  const wrapped = new FusionError(error.reason, `Failed to fetch batch ${batch}: ${reason}`, error.httpStatus, error.statusText);
  wrapped.userMessage = `Failed to fetch batch ${batch}: ${error.userMessage}`;
  return wrapped;
}

/** Lucidworks Fusion behind the engine interface: query profiles over HTTP, answers parsed with zod. */
export class FusionEngine implements SearchEngine {
  readonly name = "fusion" as const;

  constructor(
    private readonly settings: FusionSettings,
    private readonly searchConfig: SearchConfig,
    private readonly pauseMs = CURSOR_PAUSE_MS,
  ) {}

  private profileUrl(profile: string, params: URLSearchParams, suffix = ""): string {
    const { url, app } = this.settings;
    return `${url}/api/apps/${encodeURIComponent(app)}/query/${encodeURIComponent(profile)}${suffix}?${params}`;
  }

  /**
   * A call's options: its own timeout, or what is left of the page's deadline when that is sooner;
   * a call with less than MIN_CALL_MS left is not worth sending (0: the client fails it at once).
   */
  private httpOptions(context?: RequestContext, timeoutMs = this.settings.timeoutMs): FusionHttpOptions {
    const left = context?.deadline === undefined ? timeoutMs : Math.min(timeoutMs, context.deadline - Date.now());
    return { apiKey: this.settings.apiKey, timeoutMs: left < MIN_CALL_MS ? 0 : left, requestId: context?.requestId, signal: context?.signal };
  }

  private get(url: string, context?: RequestContext, timeoutMs?: number) {
    return fusionGet(url, this.httpOptions(context, timeoutMs));
  }

  /** A search; text the pipeline's parser refuses is asked once more as plain words. */
  async search(request: SearchRequest, context?: RequestContext): Promise<SearchResponse> {
    // Facets are asked for and read back under the same (mapped) field names.
    const facetFields = request.facetFields.map((name) => solrFacetField(name, this.searchConfig));
    const answer = await askPlainOnRefusal(request, this.searchConfig, async (plainText) => {
      const params = buildQuery({ ...request, facetFields }, this.searchConfig, { collection: this.settings.collection, plainText });
      const { body, headers } = await this.get(this.profileUrl(this.settings.queryProfile, params), context);
      return parseSearchResponse(body, facetFields, headers.get("x-fusion-query-id"));
    });
    // A pipeline may override `rows`: a page never shows more than it asked for.
    const { value } = answer;
    return value.docs.length > request.rows ? { ...value, docs: value.docs.slice(0, request.rows) } : value;
  }

  /**
   * Every match through `cursorMark`, from `*`, sorted with the `id` tie-breaker, until the mark
   * repeats. A failure names the batch: `Failed to fetch batch {n}: {reason}`.
   */
  async *cursor(request: CursorRequest, context?: RequestContext): AsyncIterable<Doc[]> {
    let mark = "*";
    let plainText = false;
    let delivered = 0;
    const limit = request.limit ?? Number.POSITIVE_INFINITY;
    for (let batch = 1; delivered < limit; batch++) {
      if (batch > 1 && this.pauseMs > 0) await sleep(this.pauseMs, context?.signal);
      if (context?.signal?.aborted) return;
      const rows = Math.min(request.batchSize, limit - delivered);
      const batchRequest = { ...request, start: 0, rows, facetFields: [], highlight: false };
      const read = async (plain: boolean) => {
        const params = buildQuery(batchRequest, this.searchConfig, { collection: this.settings.collection, cursorMark: mark, plainText: plain }, CURSOR_STEPS);
        return parseSolrBody((await this.get(this.profileUrl(this.settings.queryProfile, params), context)).body);
      };
      let next: string | undefined;
      let docs: Doc[];
      try {
        let solr;
        // The first batch finds out, as a search would, whether the text must go as plain words.
        if (batch === 1) ({ value: solr, plainText } = await askPlainOnRefusal(batchRequest, this.searchConfig, read));
        else solr = await read(plainText);
        docs = solr.response.docs.map((d) => toDoc(d));
        next = solr.nextCursorMark;
      } catch (error) {
        throw batchError(batch, error);
      }
      // A full batch without a mark: the pipeline dropped `cursorMark`, and stopping here would
      // end the file early without a word.
      if (next === undefined && docs.length >= rows) {
        throw new FusionError("malformed", MESSAGES.cursorFailed(`the answer to batch ${batch} has no nextCursorMark`));
      }
      // A pipeline may override `rows`: never hand out more than asked for.
      if (docs.length > limit - delivered) docs = docs.slice(0, limit - delivered);
      if (docs.length > 0) {
        delivered += docs.length;
        yield docs;
      }
      if (!next || next === mark || docs.length === 0) return;
      mark = next;
    }
  }

  async getProduct(idOrItemNumber: string, context?: RequestContext): Promise<Doc | null> {
    const value = solrPhrase(idOrItemNumber);
    const params = new URLSearchParams({ q: `item_number_s:${value} OR id:${value}`, rows: "1", start: "0", wt: "json", fl: "*,score" });
    if (this.settings.collection) params.set("collection", this.settings.collection);
    const { body } = await this.get(this.profileUrl(this.settings.queryProfile, params), context);
    const doc = parseSolrBody(body).response.docs[0];
    return doc ? toDoc(boundDoc(doc)) : null;
  }

  /** One cheap exact query (no facets, highlights or spell-check) for a query shaped like a part number. */
  async findByNumber(text: string, limit: number, context?: RequestContext): Promise<Doc[]> {
    const params = new URLSearchParams({ q: numberQuery(text), rows: String(limit), start: "0", wt: "json", fl: "*,score" });
    if (this.settings.collection) params.set("collection", this.settings.collection);
    const { body } = await this.get(this.profileUrl(this.settings.queryProfile, params), context);
    return parseSolrBody(body).response.docs.map((d) => toDoc(boundDoc(d)));
  }

  async bom(request: BomRequest, context?: RequestContext): Promise<BomResponse> {
    const params = new URLSearchParams({ start: String(request.start), rows: String(request.rows), wt: "json" });
    const key = bomKeyOf(request);
    let url: string;
    if (request.type === "asset") {
      if (request.sort) params.set("sort", `${ASSET_BOM_SORT_FIELDS[request.sort.field]} ${request.sort.direction}`);
      params.set("fq", `${key.field}_s:${solrPhrase(key.value)}`);
      url = this.profileUrl(this.settings.assetBomProfile, params);
    } else {
      // The BOM profile looks components up by its `itemNumber` parameter; a BOM's lines are
      // asked for with a filter on the number that heads them.
      if (key.field === "item_number") params.set("itemNumber", key.value);
      else params.set("fq", `asset_number_s:${solrPhrase(key.value)}`);
      if (request.type) params.set("type", request.type);
      if (request.sort) params.set("sort", `${request.sort.field} ${request.sort.direction}`);
      url = this.profileUrl(this.settings.bomProfile, params);
    }
    const { body } = await this.get(url, context);
    const solr = parseSolrBody(body);
    return { docs: solr.response.docs.map((d) => toBomDoc(d)), total: solr.response.numFound };
  }

  /** Type-ahead. A failure is thrown like any other, for the circuit to count (SearchService.suggest). */
  async suggest(prefix: string, count: number, context?: RequestContext): Promise<string[]> {
    if (!prefix.trim()) return [];
    const params = new URLSearchParams({
      suggest: "true",
      "suggest.dictionary": "default",
      "suggest.q": prefix,
      "suggest.count": String(count),
    });
    if (this.settings.collection) params.set("collection", this.settings.collection);
    const { body } = await this.get(this.profileUrl(this.settings.queryProfile, params, "/suggest"), context);
    return parseSuggestions(body).slice(0, count);
  }

  /**
   * Spec §7: the endpoint root first (5 s), then a one-row query (10 s), through the same client as
   * every search. A failure says the spec's text for it (401, 403, 404, refused, timeout…).
   */
  async health(context?: RequestContext): Promise<EngineHealth> {
    try {
      const root = await fusionStatus(`${this.settings.url}/`, this.httpOptions(context, HEALTH_ROOT_TIMEOUT_MS)).catch((error: unknown) => {
        // A root that cannot be had for a reason of no name of its own is "not reachable".
        throw error instanceof FusionError && error.reason === "failed" ? new FusionError("unreachable", MESSAGES.unreachable) : error;
      });
      if (root >= 500) return { ok: false, detail: MESSAGES.unreachable };
      const request = { q: "*:*", within: [], filters: [], sort: null, start: 0, rows: 1, facetFields: [], highlight: false };
      const params = buildQuery(request, this.searchConfig, { collection: this.settings.collection });
      const { body, headers } = await this.get(this.profileUrl(this.settings.queryProfile, params), context, HEALTH_QUERY_TIMEOUT_MS);
      parseSearchResponse(body, [], headers.get("x-fusion-query-id"));
      return { ok: true };
    } catch (error) {
      return { ok: false, detail: error instanceof Error ? error.message : String(error) };
    }
  }
}
