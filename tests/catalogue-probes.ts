/**
 * Test data found through the portal's own API and exports instead of hard-coded sample values,
 * shared by the browser and HTTP suites; no test runner imported. Each suite passes its own GET
 * (Playwright's request context, or fetch against the HTTP suite's server).
 */
import Papa from "papaparse";

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

/** How a component is used: its asset, PM and other (tools') BOM records, and the numbers heading those BOMs. */
export interface ComponentUses {
  asset: number;
  pm: number;
  other: number;
  heads: { asset: string[]; pm: string[]; other: string[] };
}

/** One of the portal's CSV downloads as rows (without the header); an empty list for a 404. */
async function csvRows(get: GetText, path: string): Promise<string[][]> {
  const response = await get(path);
  if (response.status === 404) return [];
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
  return Papa.parse<string[]>((await response.text()).replace(/^\uFEFF/, ""), { skipEmptyLines: true }).data.slice(1);
}

const usesCache = new Map<string, ComponentUses>();

/**
 * How a component is used. There is no JSON API for BOMs: this reads the item's BOM export
 * (`/bom/{item}/export.csv?type=all`: the type first, the asset number fourth), which answers 404
 * when it has none. Cached per process.
 */
export async function componentUses(get: GetText, item: string): Promise<ComponentUses> {
  const cached = usesCache.get(item);
  if (cached) return cached;
  const rows = await csvRows(get, `/bom/${encodeURIComponent(item)}/export.csv?type=all`);
  const of = (type: string) => rows.filter((row) => row[0] === type);
  const heads = (type: string) => [...new Set(of(type).map((row) => row[3]!))];
  const uses = {
    asset: of("asset").length,
    pm: of("pm").length,
    other: of("other").length,
    heads: { asset: heads("asset"), pm: heads("pm"), other: heads("other") },
  };
  usesCache.set(item, uses);
  return uses;
}

/** How many BOM records of each type an item (a component) has: its asset, PM and tools' uses. */
export async function bomCounts(get: GetText, item: string): Promise<BomCounts> {
  const { asset, pm, other } = await componentUses(get, item);
  return { asset, pm, other };
}

/** A line of a head's BOM as its export writes it (`/boms/{head}/export.csv`), cells as text. */
export interface HeadLineRow {
  item: string;
  description: string;
  quantity: string;
  unit: string;
  stock: string;
  locator: string;
}

/** The lines of the BOM an asset, PM kit or tool heads, in the BOM's order, read from its export. */
export async function headLines(get: GetText, head: string): Promise<HeadLineRow[]> {
  const rows = await csvRows(get, `/boms/${encodeURIComponent(head)}/export.csv`);
  return rows.map(([item, description, quantity, unit, stock, locator]) => ({
    item: item!,
    description: description!,
    quantity: quantity!,
    unit: unit!,
    stock: stock!,
    locator: locator!,
  }));
}

/** The item numbers of a search, in result order, at most `max`. */
async function* itemsOf(get: GetText, q: string, max: number): AsyncIterable<string> {
  for (let start = 0; start < max; start += 100) {
    const result = await apiSearch(get, { q, rows: Math.min(100, max - start), start });
    for (const doc of result.docs) if (doc.item_number_s) yield String(doc.item_number_s);
    if (start + 100 >= result.numFound) return;
  }
}

export interface ProbeOptions {
  /** The search whose items are tried: components with many uses have item numbers starting MRO-. */
  q?: string;
  /** At most this many items are tried. */
  max?: number;
}

/** The first item (of a search, in result order) whose uses satisfy `wanted`. */
export async function findBomItem(
  get: GetText,
  wanted: (uses: ComponentUses) => boolean,
  what: string,
  { q = "MRO", max = 300 }: ProbeOptions = {},
): Promise<{ item: string; counts: ComponentUses }> {
  for await (const item of itemsOf(get, q, max)) {
    const counts = await componentUses(get, item);
    if (wanted(counts)) return { item, counts };
  }
  throw new Error(`no item that ${what} among the first ${max} results for "${q}"`);
}

/**
 * An asset, PM kit or tool whose BOM's lines satisfy `wanted`, found as a Where Used page finds it:
 * through the components of a search (as `findBomItem`) and the BOMs that use them.
 */
export async function findBomHead(
  get: GetText,
  type: "asset" | "pm" | "other",
  wanted: (lines: HeadLineRow[]) => boolean,
  what: string,
  { q = "MRO", max = 300 }: ProbeOptions = {},
): Promise<{ head: string; lines: HeadLineRow[]; component: string }> {
  const tried = new Set<string>();
  for await (const item of itemsOf(get, q, max)) {
    for (const head of (await componentUses(get, item)).heads[type]) {
      if (tried.has(head)) continue;
      tried.add(head);
      const lines = await headLines(get, head);
      if (wanted(lines)) return { head, lines, component: item };
    }
  }
  throw new Error(`no ${type} BOM that ${what} among those using the first ${max} results for "${q}"`);
}

/** Today's date as export file names write it (UTC), and the day before/after around midnight. */
export function exportDates(): string[] {
  const now = Date.now();
  return [now - 60_000, now, now + 60_000].map((t) => new Date(t).toISOString().slice(0, 10));
}
