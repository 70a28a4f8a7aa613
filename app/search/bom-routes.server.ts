import { json, redirect } from "@remix-run/node";
import { requestIdOf } from "~/lib/http.server";
import { logFailure } from "~/lib/log.server";
import { itemPath } from "~/lib/safe-path";
import { backParam, bomTypeCounts, itemNumberParam, loadBomSection, type SectionSpec } from "./bom-page.server";
import { BOM_PAGE_SIZE, BOM_TABLE_COLUMNS } from "./bom-view";
import type { BomType } from "./engine";

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

/** /bom/{item}: all three sections, or a redirect when every record has one type. */
export async function loadCombinedBom(request: Request, rawItem: string | undefined) {
  const item = itemNumberParam(rawItem);
  const url = new URL(request.url);
  const back = backParam(url);
  const context = { requestId: requestIdOf(request), signal: request.signal };
  let counts;
  try {
    counts = await bomTypeCounts(item, context);
  } catch (error) {
    logFailure("BOM", error, context);
    throw json({ message: "Failed to load BOM data", back }, { status: 503 });
  }
  if (counts.asset + counts.pm + counts.other === 0) throw json({ message: "No BOM data found for this item", back }, { status: 404 });
  if (counts.pm === 0 && counts.other === 0) throw redirect(`${itemPath("/asset-bom", item)}${url.search}`);
  if (counts.asset === 0 && counts.other === 0) throw redirect(`${itemPath("/pm-bom", item)}${url.search}`);
  try {
    const sections = await Promise.all([ASSET, PM, OTHER].map((s) => loadBomSection(item, s, url, context)));
    return { item, back, sections, exportHref: `${itemPath("/bom", item)}/export.csv?type=all` };
  } catch (error) {
    logFailure("BOM", error, context);
    throw json({ message: "Failed to fetch BOM data", back }, { status: 503 });
  }
}

const SINGLE = {
  asset: { spec: ASSET, empty: "No Asset BOM data found for this item", failed: "Failed to load Asset BOM data" },
  pm: { spec: PM, empty: "No PM BOM data found for this item", failed: "Failed to load PM BOM data" },
} as const;

/** /asset-bom/{item} and /pm-bom/{item}: one type only. */
export async function loadSingleBom(request: Request, rawItem: string | undefined, type: "asset" | "pm") {
  const item = itemNumberParam(rawItem);
  const url = new URL(request.url);
  const back = backParam(url);
  const context = { requestId: requestIdOf(request), signal: request.signal };
  const { spec: sectionSpec, empty, failed } = SINGLE[type];
  let section;
  try {
    section = await loadBomSection(item, sectionSpec, url, context);
  } catch (error) {
    logFailure(`${type} BOM`, error, context);
    throw json({ message: failed, back }, { status: 503 });
  }
  if (section.total === 0) throw json({ message: empty, back }, { status: 404 });
  return { item, back, sections: [section], exportHref: `${itemPath("/bom", item)}/export.csv?type=${type}` };
}
