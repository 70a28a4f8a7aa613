import type { AppLoadContext } from "@remix-run/node";
import { csvDocument } from "~/export/csv";
import { exportFilename } from "~/export/filename";
import { csvResponse } from "~/export/stream.server";
import { services } from "~/registry.server";
import { PERIODS, type AnalyticsReport } from "~/signals/store.server";
import { requireUser } from "./sign-in.server";
import { problemPage } from "./problem-page.server";

export const ANALYTICS_PATH = "/analytics";
// The store keeps running totals for exactly these periods.
export { PERIODS };
type Period = (typeof PERIODS)[number];
const ROWS = 20;

function periodOf(url: URL): Period {
  const days = Number(url.searchParams.get("days"));
  return (PERIODS as readonly number[]).includes(days) ? (days as Period) : 30;
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The last `days` days up to today (UTC), today included. */
function rangeOf(days: Period, now = Date.now()): { from: string; to: string; days: string[] } {
  const list = Array.from({ length: days }, (_, i) => isoDay(now - (days - 1 - i) * 86_400_000));
  return { from: list[0]!, to: list.at(-1)!, days: list };
}

async function reportOf(days: Period): Promise<{ report: AnalyticsReport; days: string[] }> {
  const range = rangeOf(days);
  const report = await services().signals.report(range.from, range.to, ROWS);
  // The periods may end a day or more before today (the upkeep moves them, decision 040): the chart shows the days the report is of.
  return { report, days: report.to === range.to ? range.days : rangeOf(days, Date.parse(`${report.to}T00:00:00Z`)).days };
}

const percent = (part: number, whole: number) => (whole ? `${((100 * part) / whole).toFixed(1)} %` : "–");
const position = (value: number | null) => (value === null ? "–" : value.toFixed(1));

/** The tables of the page, each as headers and rows of text: the page and its CSV show the same. */
function tablesOf(report: AnalyticsReport) {
  const queryRows = (rows: AnalyticsReport["topQueries"]) =>
    rows.map((r) => ({ query: r.query, searches: String(r.searches), zero: String(r.zeroResults), clicks: String(r.clicks), ctr: percent(r.clicks, r.searches), position: position(r.meanPosition) }));
  const queryColumns = { query: "Query", searches: "Searches", zero: "Zero results", clicks: "Clicks", ctr: "Click-through rate", position: "Mean clicked position" };
  const itemRows = (rows: AnalyticsReport["mostViewed"]) => rows.map((r) => ({ item: r.item, title: r.title, count: String(r.count) }));
  return {
    top: { title: "Top queries", columns: queryColumns, rows: queryRows(report.topQueries) },
    zero: { title: "Queries with zero results", columns: queryColumns, rows: queryRows(report.zeroResultQueries) },
    viewed: { title: "Most viewed items", columns: { item: "Item", title: "Title", count: "Views" }, rows: itemRows(report.mostViewed) },
    exported: { title: "Most exported items", columns: { item: "Item", title: "Title", count: "Exports" }, rows: itemRows(report.mostExported) },
  };
}
export type TableName = keyof ReturnType<typeof tablesOf>;
const TABLES: readonly TableName[] = ["top", "zero", "viewed", "exported"];

/** /analytics: the search analytics of the last 7, 30 or 90 days, from the signals the portal keeps. */
export async function loadAnalytics(request: Request, loadContext: AppLoadContext) {
  await requireUser(request, loadContext);
  const url = new URL(request.url);
  const period = periodOf(url);
  const { report, days } = await reportOf(period);
  const byDay = new Map(report.perDay.map((d) => [d.day, d.searches]));
  const t = report.totals;
  return {
    period,
    periods: PERIODS.map((d) => ({ days: d, href: `${ANALYTICS_PATH}?days=${d}`, current: d === period })),
    enabled: services().signals.enabled,
    from: report.from,
    to: report.to,
    totals: {
      searches: t.searches,
      zeroResults: t.zeroResults,
      clicks: t.clicks,
      ctr: percent(t.clicks, t.searches),
      meanPosition: position(t.meanPosition),
      views: t.views,
      exports: t.exports,
      dropped: t.dropped,
      evicted: t.evicted,
    },
    perDay: days.map((day) => ({ day, searches: byDay.get(day) ?? 0 })),
    tables: TABLES.map((name) => ({ name, ...tablesOf(report)[name], csvHref: `${ANALYTICS_PATH}/export.csv?days=${period}&table=${name}` })),
  };
}

/** /analytics/export.csv?days=&table=: one table of the page as CSV, with the portal's CSV writer. */
export async function loadAnalyticsCsv(request: Request, loadContext: AppLoadContext) {
  await requireUser(request, loadContext);
  const url = new URL(request.url);
  const table = url.searchParams.get("table") as TableName | null;
  if (!table || !TABLES.includes(table)) return problemPage("Unknown analytics table", 400, { backHref: ANALYTICS_PATH });
  const period = periodOf(url);
  const { title, columns, rows } = tablesOf((await reportOf(period)).report)[table];
  return csvResponse(csvDocument(rows, Object.keys(columns), columns), exportFilename(`analytics-${title}-${period}-days`, new Date()));
}
