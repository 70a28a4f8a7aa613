/**
 * `/boms/{head}` and `/boms/{head}/export.csv` (decision 037): the lines of the BOM an asset, PM kit
 * or tool heads, each with its part from the catalogue, sortable and exportable.
 */
import { json, type AppLoadContext } from "@remix-run/node";
import { exportFilename, slug } from "~/export/filename";
import { csvResponse, csvStream, openCursor } from "~/export/stream.server";
import { services } from "~/registry.server";
import type { BomDoc, Doc, Filter, RequestContext } from "~/search/engine";
import { ITEM_NUMBER_FIELD } from "~/search/catalog-fields";
import {
  buildHeadLinesView,
  HEAD_KIND,
  HEAD_LINE_COLUMNS,
  HEAD_LINES_MAX,
  headSummaryOf,
  joinLines,
  parseLinesSort,
  sortLines,
  type HeadLine,
} from "~/search/head-lines";
import { pageBackOf, searchBackOf } from "~/search/back-chain";
import { shellFromBack } from "~/search/page-shell";
import { bomPath, headLinesPath, withBack } from "~/search/paths";
import { pageRequestOf } from "~/search/request";
import type { Source } from "~/search/service";
import { backupOf } from "./backup.server";
import { pageRequest, type PageContext } from "./bom-pages.server";
import { logFailure } from "./failure-log.server";
import { problemPage } from "./problem-page.server";

/** Item numbers asked for in one search: a short request line on every engine. */
const ITEMS_PER_LOOKUP = 100;

/**
 * The catalogue's items among `numbers`, looked up as include filters on the item number (OR-ed
 * within the field on every engine), from the engine that gave the lines.
 */
async function partsOf(numbers: readonly string[], context: RequestContext, source: Source | undefined): Promise<Doc[]> {
  const unique = [...new Set(numbers.filter((n) => n.trim() !== ""))];
  const found: Doc[] = [];
  for (let i = 0; i < unique.length; i += ITEMS_PER_LOOKUP) {
    const chunk = unique.slice(i, i + ITEMS_PER_LOOKUP);
    const filters: Filter[] = chunk.map((value) => ({ field: ITEM_NUMBER_FIELD, value, type: "include" }));
    found.push(...(await services().search.search(pageRequestOf({ q: "", within: [], filters, sort: null }, 0, chunk.length), context, source)).value.docs);
  }
  return found;
}

interface HeadBom {
  records: BomDoc[];
  total: number;
  lines: HeadLine[];
  /** The parts could not be looked up: the lines go without them. */
  partsMissing: boolean;
  backup: string | null;
}

/** A head's records (at most HEAD_LINES_MAX, in the BOM's order) joined with their parts. */
async function headBom(head: string, context: PageContext): Promise<HeadBom> {
  const answer = await services().search.bom({ assetNumber: head, start: 0, rows: HEAD_LINES_MAX }, context);
  const { docs: records, total } = answer.value;
  let parts: Doc[] = [];
  let partsMissing = false;
  if (records.length > 0) {
    try {
      // From the backup when it gave the lines, so that one page never mixes two catalogues' parts.
      parts = await partsOf(
        records.map((r) => r.item_number),
        context,
        answer.degraded ? "backup" : undefined,
      );
    } catch (error) {
      logFailure("the parts of a BOM's lines", error, context);
      partsMissing = true;
    }
  }
  return { records, total, lines: joinLines(records, parts), partsMissing, backup: backupOf(answer) };
}

/** The answer for a number that heads no BOM: an item with BOM data is offered its BOM page. */
async function noHead(number: string, back: string, context: PageContext): Promise<Response> {
  const uses = await services()
    .search.bom({ itemNumber: number, start: 0, rows: 0 }, context)
    .then((answer) => answer.value.total, () => 0);
  const related = uses > 0 ? { label: "View the item's BOM data", href: withBack(bomPath(number), back) } : undefined;
  return json({ message: `No BOM is headed by ${number}`, back: searchBackOf(back), notFound: true, ...(related ? { related } : {}) }, { status: 404 });
}

/** /boms/{head}: the head, then its lines, a page of them in the asked order. */
export async function loadHeadLines(request: Request, loadContext: AppLoadContext, rawHead: string | undefined) {
  const { item: number, url, back, searchBack, context } = await pageRequest(request, loadContext, rawHead);
  let bom: HeadBom;
  try {
    bom = await headBom(number, context);
  } catch (error) {
    logFailure("BOM lines", error, context);
    throw json({ message: "Failed to load BOM data", back: searchBack }, { status: 503 });
  }
  if (bom.total === 0) throw await noHead(number, back, context);
  const head = headSummaryOf(number, bom.records);
  return {
    head: { ...head, kind: HEAD_KIND[head.type] },
    back: searchBack,
    shell: shellFromBack(searchBack),
    pageBack: pageBackOf(back),
    table: buildHeadLinesView({ head: number, lines: bom.lines, total: bom.total, params: url.searchParams }),
    partsMissing: bom.partsMissing,
    backup: bom.backup,
  };
}

const EXPORT_LABELS = Object.fromEntries(HEAD_LINE_COLUMNS.map((c) => [c.field, c.label]));

/** /boms/{head}/export.csv: every line read (in the page's `sort`), `bom-lines-{head}-{date}.csv`. */
export async function loadHeadLinesExport(request: Request, loadContext: AppLoadContext, rawHead: string | undefined) {
  const { item: number, url, context } = await pageRequest(request, loadContext, rawHead).catch((error: unknown) => {
    if (error instanceof Response && error.status === 400) throw problemPage("Item number not provided", 400, { backHref: "/crib-search" });
    throw error;
  });
  const page = headLinesPath(number);
  let bom: HeadBom;
  try {
    bom = await headBom(number, context);
  } catch (error) {
    logFailure("BOM lines export", error, context);
    return problemPage("Export failed: Failed to load BOM data", 503, { backHref: page, retryHref: url.pathname + url.search });
  }
  if (bom.total === 0) return problemPage("No data available for export", 404, { backHref: page });
  const lines = sortLines(bom.lines, parseLinesSort(url.searchParams.get("sort")));
  const cursor = await openCursor((async function* () {
    yield lines;
  })());
  return csvResponse(
    csvStream({ cursor, fields: HEAD_LINE_COLUMNS.map((c) => c.field), labels: EXPORT_LABELS, signal: request.signal }),
    exportFilename(`bom-lines-${slug(number)}`, new Date()),
  );
}
