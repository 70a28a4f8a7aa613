import { json, redirect, type AppLoadContext } from "@remix-run/node";
import type { Crumb } from "~/components/breadcrumbs";
import { pageContext } from "~/web/http.server";
import { safePath } from "~/lib/safe-path";
import { services } from "~/registry.server";
import {
  BOM_PAGE_SIZE,
  BOM_TABLE_COLUMNS,
  buildBomSection,
  parseSectionState,
  sectionControlsOf,
  sectionRowsOf,
  WHERE_USED_COLUMNS,
  WHERE_USED_DEFAULT_SORT,
  PRINT_ALL,
  printsAll,
  WHERE_USED_PAGE_SIZE,
  WHERE_USED_SORTS,
  type BomColumn,
  type SectionSort,
  type SectionState,
} from "~/search/bom-view";
import type { BomNumber, BomType, RequestContext } from "~/search/engine";
import { backChainOf, pageBackOf, searchBackOf, type BackStep } from "~/search/back-chain";
import { shellFromBack } from "~/search/page-shell";
import { bomPath, exportCsvPath, headLinesPath, HOME_PATH, isItemKey, itemPath, withBack } from "~/search/paths";
import { itemDescription } from "~/search/field-format";
import { parseSearchParams } from "~/search/state";
import { requireUser } from "./sign-in.server";
import { backupOf } from "./backup.server";
import { logFailure } from "./failure-log.server";
import { withSignals, type SignalInput } from "./page-signals.server";

/** What the BOM and Where Used pages share: the item from the path, the way back, one section's page. */

/** Validates an item number from the path; answers 400 with the spec's text when there is none. */
function itemNumberParam(raw: string | undefined): string {
  const item = (raw ?? "").trim();
  if (!item) throw json({ message: "Item number not provided" }, { status: 400 });
  if (!isItemKey(item)) {
    throw json({ message: "Invalid item number" }, { status: 400 });
  }
  return item;
}

/** The `back` parameter: a same-site path, or the search home. */
export function backParam(url: URL): string {
  return safePath(url.searchParams.get("back"), HOME_PATH);
}

/** What every BOM and Where Used page starts with: the user, the item, the ways back, the context. */
export async function pageRequest(request: Request, loadContext: AppLoadContext, rawItem: string | undefined) {
  await requireUser(request, loadContext);
  const item = itemNumberParam(rawItem);
  const url = new URL(request.url);
  const back = backParam(url);
  return { item, url, back, searchBack: searchBackOf(back), context: pageContext(request, loadContext) };
}

/** A page's context: every failure it logs names its request. */
export type PageContext = RequestContext & { requestId: string };

export interface SectionSpec {
  prefix: string;
  type: BomType;
  title: string;
  columns: BomColumn[];
  pageSize: number;
  defaultSort: SectionSort | null;
}

/** Loads one section's page; a page past the end is answered with the last page. */
async function loadBomSection(number: BomNumber, spec: SectionSpec, url: URL, context: RequestContext) {
  const service = services().search;
  const state: SectionState = parseSectionState(url.searchParams, spec.prefix, spec.defaultSort);
  // Printed, every row of the section on one page.
  const printing = printsAll(url.searchParams);
  if (printing) state.page = 1;
  const pageSize = printing ? PRINT_ALL.rows : sectionRowsOf(url.searchParams, spec.prefix, spec.pageSize);
  const fetchPage = (page: number) =>
    service.bom(
      {
        ...number,
        type: spec.type,
        start: (page - 1) * pageSize,
        rows: pageSize,
        sort: state.sort ?? undefined,
      },
      context,
    );
  let answer = await fetchPage(state.page);
  const lastPage = Math.max(1, Math.ceil(answer.value.total / pageSize));
  if (state.page > lastPage) {
    state.page = lastPage;
    answer = await fetchPage(lastPage);
  }
  const section = buildBomSection({
    prefix: spec.prefix,
    type: spec.type,
    title: spec.title,
    response: answer.value,
    state,
    pageSize,
    columns: spec.columns,
    path: url.pathname,
    params: url.searchParams,
    defaultSort: spec.defaultSort,
  });
  return { ...section, controls: sectionControlsOf(url.searchParams, spec.prefix, state, pageSize), degraded: answer.degraded, backup: backupOf(answer) };
}

/**
 * The page's way to print every row: a link to it while sections show a page of their rows, and
 * the way back to pages once it is shown.
 */
function printViewOf(url: URL, sections: { total: number; rows: unknown[] }[]): { printing: boolean; href: string; rows: number } | null {
  const params = new URLSearchParams(url.search);
  if (printsAll(params)) {
    params.delete(PRINT_ALL.param);
    const search = params.toString();
    return { printing: true, href: `${url.pathname}${search ? `?${search}` : ""}`, rows: sections.reduce((n, s) => n + s.rows.length, 0) };
  }
  if (!sections.some((s) => s.total > s.rows.length)) return null;
  params.set(PRINT_ALL.param, PRINT_ALL.value);
  return { printing: false, href: `${url.pathname}?${params}`, rows: sections.reduce((n, s) => n + Math.min(s.total, PRINT_ALL.rows), 0) };
}

/** How many BOM records of each type an item has (for the single-type redirect). */
async function bomTypeCounts(itemNumber: string, context: RequestContext) {
  const service = services().search;
  const [asset, pm, other] = await Promise.all(
    (["asset", "pm", "other"] as const).map((type) => service.bom({ itemNumber, type, start: 0, rows: 0 }, context)),
  );
  return { asset: asset!.value.total, pm: pm!.value.total, other: other!.value.total };
}

/**
 * The number as it heads a BOM (an asset, PM kit or tool, as the catalogue writes it), or null.
 * A failure is null: this only offers a better answer than "no data".
 */
export async function bomHeadOf(number: string, context: PageContext): Promise<string | null> {
  try {
    const answer = await services().search.bom({ assetNumber: number, start: 0, rows: 1 }, context);
    const head = answer.value.docs[0]?.asset_number;
    return answer.value.total > 0 ? (head && head.trim() !== "" ? head : number) : null;
  } catch (error) {
    logFailure("the look-up of a BOM head", error, context);
    return null;
  }
}

/** This page's query string with the way back as cleaned here, for a redirect that keeps both. */
function keptSearch(url: URL, back: string): string {
  const params = new URLSearchParams(url.search);
  if (params.has("back")) params.set("back", back);
  return params.size > 0 ? `?${params}` : "";
}

/**
 * The answer for an item number with no BOM data of the kind asked for. A number that heads a BOM
 * (an asset, PM kit or tool: the BOM pages of decision 033 took those) goes to its lines.
 */
async function noBom(message: string, item: string, url: URL, back: string, context: PageContext): Promise<Response> {
  const head = await bomHeadOf(item, context);
  if (head) return redirect(`${headLinesPath(head)}${keptSearch(url, back)}`);
  return json({ message, back: searchBackOf(back) }, { status: 404 });
}

const spec = (type: BomType, title: string): SectionSpec => ({
  prefix: type,
  type,
  title,
  columns: BOM_TABLE_COLUMNS,
  pageSize: BOM_PAGE_SIZE,
  defaultSort: null,
});

const ASSET = spec("asset", "Asset BOM");
const PM = spec("pm", "PM BOM");
const OTHER = spec("other", "Other BOM Items");

/**
 * /bom/{item}: the item's BOM records in three sections (Asset BOM, PM BOM, Other BOM Items: its
 * uses in tools' BOMs), or a redirect when they all have one type (details spec §2, §4, §7).
 */
export async function loadCombinedBom(request: Request, loadContext: AppLoadContext, rawItem: string | undefined) {
  const { item, url, back, searchBack, context } = await pageRequest(request, loadContext, rawItem);
  let counts;
  try {
    counts = await bomTypeCounts(item, context);
  } catch (error) {
    logFailure("BOM", error, context);
    throw json({ message: "Failed to load BOM data", back: searchBack }, { status: 503 });
  }
  if (counts.asset + counts.pm + counts.other === 0) throw await noBom("No BOM data found for this item", item, url, back, context);
  const search = keptSearch(url, back);
  if (counts.pm === 0 && counts.other === 0) throw redirect(`${itemPath("/asset-bom", item)}${search}`);
  if (counts.asset === 0 && counts.other === 0) throw redirect(`${itemPath("/pm-bom", item)}${search}`);
  try {
    const sections = await Promise.all([ASSET, PM, OTHER].map((s) => loadBomSection({ itemNumber: item }, s, url, context)));
    return { item, back: searchBack, shell: shellFromBack(searchBack), pageBack: pageBackOf(back), sections, exportHref: exportCsvPath("/bom", item, { type: "all" }) };
  } catch (error) {
    logFailure("BOM", error, context);
    // The same failure as the counts' above, in the same words.
    throw json({ message: "Failed to load BOM data", back: searchBack }, { status: 503 });
  }
}

const SINGLE = {
  asset: { spec: ASSET, empty: "No Asset BOM data found for this item", failed: "Failed to load Asset BOM data" },
  pm: { spec: PM, empty: "No PM BOM data found for this item", failed: "Failed to load PM BOM data" },
} as const;

/** /asset-bom/{item} and /pm-bom/{item}: the item's records of one type only. */
export async function loadSingleBom(request: Request, loadContext: AppLoadContext, rawItem: string | undefined, type: "asset" | "pm") {
  const { item, url, back, searchBack, context } = await pageRequest(request, loadContext, rawItem);
  const { spec: sectionSpec, empty, failed } = SINGLE[type];
  let section;
  try {
    section = await loadBomSection({ itemNumber: item }, sectionSpec, url, context);
  } catch (error) {
    logFailure(`${type} BOM`, error, context);
    throw json({ message: failed, back: searchBack }, { status: 503 });
  }
  if (section.total === 0) throw await noBom(empty, item, url, back, context);
  return { item, back: searchBack, shell: shellFromBack(searchBack), pageBack: pageBackOf(back), sections: [section], exportHref: exportCsvPath("/bom", item, { type }) };
}

const WHERE_USED_SECTIONS: SectionSpec[] = [
  { prefix: "asset", type: "asset", title: "Asset BOM", columns: WHERE_USED_COLUMNS, pageSize: WHERE_USED_PAGE_SIZE, defaultSort: WHERE_USED_DEFAULT_SORT },
  { prefix: "pm", type: "pm", title: "PM BOM", columns: WHERE_USED_COLUMNS, pageSize: WHERE_USED_PAGE_SIZE, defaultSort: WHERE_USED_DEFAULT_SORT },
];

/** Breadcrumbs from where the user came: a search, or an item page (which itself may carry its search). */
function crumbsFor(back: string, item: string): Crumb[] {
  const crumbs: Crumb[] = [{ label: "Home", href: HOME_PATH }];
  const searchCrumb = (step: BackStep): Crumb => {
    const q = parseSearchParams(step.params, services().searchConfig).q;
    return { label: q ? `Search Results: "${q}"` : "Search Results", href: step.href };
  };
  const [first, second] = backChainOf(back, 2);
  if (first?.page === "search") crumbs.push(searchCrumb(first));
  if (first?.page === "product") {
    if (second?.page === "search") crumbs.push(searchCrumb(second));
    crumbs.push({ label: `Product ${first.subject}`, href: first.href });
  }
  crumbs.push({ label: `Where Used: ${item}` });
  return crumbs;
}

/**
 * /where-used/{item}: the asset and PM BOMs that use the item, five records a page each, under the
 * item's description. An item that is neither in the catalogue nor in any BOM does not exist (404).
 */
export async function loadWhereUsed(request: Request, loadContext: AppLoadContext, rawItem: string | undefined) {
  const { item, url, back, searchBack, context } = await pageRequest(request, loadContext, rawItem);
  const fromItemPage = url.searchParams.get("via") === "pdp_where_used";
  url.searchParams.delete("via");
  // The item itself only names the page: when its look-up fails the page goes on without it.
  const product = services()
    .search.getProduct(item, context)
    .then((answer) => answer.value, () => undefined);
  // Uses in tools' BOMs are in no Where Used section: counted for the way to the item's BOM page,
  // which shows them; when the count fails the link goes by the other uses alone.
  const tools = services()
    .search.bom({ itemNumber: item, type: "other", start: 0, rows: 0 }, context)
    .then((answer) => answer.value.total, () => 0);
  let sections;
  try {
    sections = await Promise.all(WHERE_USED_SECTIONS.map((spec) => loadBomSection({ itemNumber: item }, spec, url, context)));
  } catch (error) {
    logFailure("Where Used", error, context);
    throw json({ message: "Failed to fetch Where Used data", back: searchBack }, { status: 503 });
  }
  const [asset, pm] = sections as [(typeof sections)[0], (typeof sections)[0]];
  const doc = await product;
  if (doc === null && asset.total + pm.total === 0) {
    throw json({ message: `Item ${item} does not exist`, back: searchBack, notFound: true }, { status: 404 });
  }
  // Usage signals: the item page's "View Where Used", for an item that exists.
  const signals: SignalInput[] = fromItemPage && doc ? [{ type: "click", data: { action: "pdp_where_used", docId: doc.id, itemNumber: item } }] : [];
  const inTools = await tools;
  const records = asset.total + pm.total + inTools;
  const answer = {
    item,
    back,
    shell: shellFromBack(back),
    bom: records > 0 ? { href: withBack(bomPath(item), `${url.pathname}${url.search}`), records, inTools } : null,
    description: doc ? itemDescription(doc) ?? null : null,
    crumbs: crumbsFor(back, item),
    sections: [asset, pm],
    exportBase: exportCsvPath("/where-used", item),
    sorts: WHERE_USED_SORTS,
    print: printViewOf(url, [asset, pm]),
  };
  return withSignals(answer, signals);
}
