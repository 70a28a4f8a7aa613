import { randomUUID } from "node:crypto";
import { z } from "zod";
import type {
  BomResponse,
  CursorRequest,
  Doc,
  EngineHealth,
  RequestContext,
  SearchEngine,
  SearchRequest,
  SearchResponse,
} from "../../engine";
import { HL_POST, HL_PRE, toDoc } from "../../engine";
import { SearchError } from "../../errors";
import { queryText, searchQuery } from "../../query/query";
import { MAX_QUERY_LENGTH } from "../../state";

const NETWORK_ERROR = "Network error - please check your connection";

/** A backend of an earlier release marks highlights with U+E000 and U+E001; read as today's markers. */
const LEGACY_MARKER = /[\uE000\uE001]/g;
const Snippet = z.string().transform((text) => text.replace(LEGACY_MARKER, (c) => (c === "\uE000" ? HL_PRE : HL_POST)));

const SearchDataSchema = z.object({
  data: z.object({
    docs: z.array(z.looseObject({ id: z.union([z.string(), z.number()]) })),
    numFound: z.number(),
    facets: z.array(z.object({ field: z.string(), values: z.array(z.object({ value: z.string(), count: z.number() })) })).default([]),
    highlighting: z.record(z.string(), z.record(z.string(), z.array(Snippet))).default({}),
    suggestions: z.array(z.string()).default([]),
  }),
});

const ErrorSchema = z.object({ error: z.object({ message: z.string() }) });

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * An external product backend that speaks this portal's own `/api` (DESIGN.md "Backend API").
 * Errors are normalised as the spec's backend client does: the server's message, else
 * "Network error - please check your connection" when there was no response.
 */
export class BackendEngine implements SearchEngine {
  readonly name = "backend" as const;

  constructor(private readonly settings: { url: string; timeoutMs: number }) {}

  private async get(path: string, params: URLSearchParams, context?: RequestContext): Promise<unknown> {
    const timeout = AbortSignal.timeout(this.settings.timeoutMs);
    const signal = context?.signal ? AbortSignal.any([timeout, context.signal]) : timeout;
    let response: Response;
    try {
      response = await fetch(`${this.settings.url}/api${path}?${params}`, {
        headers: { Accept: "application/json", "X-Request-ID": context?.requestId ?? randomUUID() },
        signal,
      });
    } catch {
      // Spec §8: no response is status 0.
      throw new SearchError(NETWORK_ERROR, "outage", 0);
    }
    const body = parseJson(await response.text().catch(() => null));
    if (!response.ok) {
      const parsed = ErrorSchema.safeParse(body);
      const message = parsed.success ? parsed.data.error.message : response.statusText || "An error occurred";
      throw new SearchError(message, response.status === 404 ? "not-found" : response.status >= 500 ? "outage" : "bad-request", response.status);
    }
    return body;
  }

  async search(request: SearchRequest, context?: RequestContext): Promise<SearchResponse> {
    const filters: Record<string, { value: string; type: string }[]> = {};
    for (const f of request.filters) (filters[f.field] ??= []).push({ value: f.value, type: f.type });
    // The tree as JSON for a backend that reads it (this portal's own API does), and as query
    // text in `q` for one that reads only the public contract.
    const tree = searchQuery(request.q, request.within);
    const q = request.within.length === 0 ? request.q.trim() : queryText(tree).slice(0, MAX_QUERY_LENGTH);
    const params = new URLSearchParams({
      q,
      query: JSON.stringify(tree),
      start: String(request.start),
      rows: String(Math.min(request.rows, 100)),
      sort: request.sort ? `${request.sort.field} ${request.sort.direction}` : "relevance",
      filters: JSON.stringify(filters),
      highlight: String(request.highlight !== false),
    });
    if (request.facetFields.length) params.set("facets", request.facetFields.join(","));
    const parsed = SearchDataSchema.safeParse(await this.get("/search", params, context));
    if (!parsed.success) throw new SearchError("Search failed");
    const data = parsed.data.data;
    return { docs: data.docs.map((d) => toDoc(d)), total: data.numFound, facets: data.facets, highlighting: data.highlighting, suggestions: data.suggestions };
  }

  async *cursor(request: CursorRequest, context?: RequestContext): AsyncIterable<Doc[]> {
    const limit = request.limit ?? Number.POSITIVE_INFINITY;
    for (let start = 0; start < limit; start += 100) {
      const rows = Math.min(100, limit - start);
      const page = await this.search({ ...request, start, rows, facetFields: [], highlight: false }, context);
      if (page.docs.length > 0) yield page.docs;
      if (page.docs.length < rows || start + rows >= page.total) return;
    }
  }

  async getProduct(idOrItemNumber: string, context?: RequestContext): Promise<Doc | null> {
    try {
      const body = await this.get(`/products/${encodeURIComponent(idOrItemNumber)}`, new URLSearchParams(), context);
      const parsed = z.object({ data: z.looseObject({ id: z.union([z.string(), z.number()]) }) }).safeParse(body);
      return parsed.success ? toDoc(parsed.data.data) : null;
    } catch (error) {
      if (error instanceof SearchError && error.status === 404) return null;
      throw error;
    }
  }

  /** The backend API has no bill-of-materials call. */
  async bom(): Promise<BomResponse> {
    throw new SearchError("Failed to fetch BOM data");
  }

  async suggest(prefix: string, count: number, context?: RequestContext): Promise<string[]> {
    try {
      const body = await this.get("/suggestions", new URLSearchParams({ q: prefix, limit: String(count) }), context);
      const parsed = z.object({ data: z.object({ suggestions: z.array(z.string()) }) }).safeParse(body);
      return parsed.success ? parsed.data.data.suggestions : [];
    } catch {
      return [];
    }
  }

  async health(context?: RequestContext): Promise<EngineHealth> {
    try {
      await this.get("/health", new URLSearchParams(), context);
      return { ok: true };
    } catch (error) {
      return { ok: false, detail: error instanceof Error ? error.message : String(error) };
    }
  }
}
