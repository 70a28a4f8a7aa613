/**
 * Test data found through the portal's own API and exports instead of hard-coded sample values,
 * shared by the browser and HTTP suites; no test runner imported. Each suite passes its own GET
 * (Playwright's request context, or fetch against the HTTP suite's server).
 */

/** A GET of a path of the portal under test: its status and body. */
export type GetText = (path: string) => Promise<{ status: number; text(): Promise<string> }>;

export interface ApiFacet {
  field: string;
  values: { value: string; count: number }[];
}
export interface ApiSearch {
  numFound: number;
  docs: Record<string, unknown>[];
  facets: ApiFacet[];
}

export interface ApiSearchParams {
  q?: string;
  rows?: number;
  start?: number;
  sort?: string;
  filters?: Record<string, { value: string; type?: "include" | "exclude" }[]>;
}

export async function apiSearch(get: GetText, params: ApiSearchParams = {}): Promise<ApiSearch> {
  const sp = new URLSearchParams();
  sp.set("q", params.q ?? "");
  if (params.rows !== undefined) sp.set("rows", String(params.rows));
  if (params.start !== undefined) sp.set("start", String(params.start));
  if (params.sort) sp.set("sort", params.sort);
  if (params.filters) sp.set("filters", JSON.stringify(params.filters));
  const response = await get(`/api/search?${sp}`);
  if (response.status !== 200) throw new Error(`GET /api/search?${sp} answered ${response.status}`);
  return JSON.parse(await response.text()).data as ApiSearch;
}

/** The results heading's text: "1 result", "12 results for "pump"". */
export function headingText(total: number, query = ""): string {
  return `${total} ${total === 1 ? "result" : "results"}${query ? ` for "${query}"` : ""}`;
}

export interface BomCounts {
  asset: number;
  pm: number;
  other: number;
}

const bomCountCache = new Map<string, BomCounts>();

/**
 * How many BOM records of each type use an item. There is no JSON API for BOMs: this reads the
 * item's BOM export (`/bom/{item}/export.csv?type=all`, one record a line with its type first),
 * which answers 404 when the item has none. Cached per process.
 */
export async function bomCounts(get: GetText, item: string): Promise<BomCounts> {
  const cached = bomCountCache.get(item);
  if (cached) return cached;
  const response = await get(`/bom/${encodeURIComponent(item)}/export.csv?type=all`);
  const counts: BomCounts = { asset: 0, pm: 0, other: 0 };
  if (response.status === 200) {
    const lines = (await response.text()).replace(/^\uFEFF/, "").split(/\r?\n/).slice(1);
    for (const line of lines) {
      const type = /^"?([a-z]+)"?,/.exec(line)?.[1];
      if (type === "asset" || type === "pm" || type === "other") counts[type]++;
    }
  } else if (response.status !== 404) {
    throw new Error(`the BOM export of ${item} answered ${response.status}`);
  }
  bomCountCache.set(item, counts);
  return counts;
}

/**
 * The first item (of a search, in result order) whose BOM counts satisfy `wanted`. Components with
 * many uses have item numbers starting MRO-, so that is the default search. Bounded: at most
 * `max` items are tried.
 */
export async function findBomItem(
  get: GetText,
  wanted: (counts: BomCounts) => boolean,
  what: string,
  { q = "MRO", max = 300 }: { q?: string; max?: number } = {},
): Promise<{ item: string; counts: BomCounts }> {
  for (let start = 0; start < max; start += 100) {
    const result = await apiSearch(get, { q, rows: Math.min(100, max - start), start });
    for (const doc of result.docs) {
      const item = String(doc.item_number_s ?? "");
      if (!item) continue;
      const counts = await bomCounts(get, item);
      if (wanted(counts)) return { item, counts };
    }
    if (start + 100 >= result.numFound) break;
  }
  throw new Error(`no item that ${what} among the first ${max} results for "${q}"`);
}

/** Today's date as export file names write it (UTC), and the day before/after around midnight. */
export function exportDates(): string[] {
  const now = Date.now();
  return [now - 60_000, now, now + 60_000].map((t) => new Date(t).toISOString().slice(0, 10));
}
