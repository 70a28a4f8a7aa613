import { json } from "@remix-run/node";
import { safePath } from "~/lib/safe-path";
import type { BomType, RequestContext } from "./engine";
import { buildBomSection, parseSectionState, type BomColumn, type SectionSort, type SectionState } from "./bom-view";
import { getSearchService } from "./service.server";

export const MAX_ITEM_NUMBER_LENGTH = 200;

/** Validates an item number from the path; answers 400 with the spec's text when there is none. */
export function itemNumberParam(raw: string | undefined): string {
  const item = (raw ?? "").trim();
  if (!item) throw json({ message: "Item number not provided" }, { status: 400 });
  // eslint-disable-next-line no-control-regex
  if (item.length > MAX_ITEM_NUMBER_LENGTH || /[\u0000-\u001f\u007f]/.test(item)) {
    throw json({ message: "Invalid item number" }, { status: 400 });
  }
  return item;
}

/** The `back` parameter: a same-site path, or the search home. */
export function backParam(url: URL): string {
  return safePath(url.searchParams.get("back"), "/crib-search");
}

export interface SectionSpec {
  prefix: string;
  type: BomType;
  title: string;
  columns: BomColumn[];
  pageSize: number;
  defaultSort: SectionSort | null;
}

/** Loads one section's page; a page past the end is answered with the last page. */
export async function loadBomSection(itemNumber: string, spec: SectionSpec, url: URL, context: RequestContext) {
  const service = getSearchService();
  const state: SectionState = parseSectionState(url.searchParams, spec.prefix, spec.defaultSort);
  const fetchPage = (page: number) =>
    service.bom(
      {
        itemNumber,
        type: spec.type,
        start: (page - 1) * spec.pageSize,
        rows: spec.pageSize,
        sort: state.sort ?? undefined,
      },
      context,
    );
  let answer = await fetchPage(state.page);
  const lastPage = Math.max(1, Math.ceil(answer.value.total / spec.pageSize));
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
    pageSize: spec.pageSize,
    columns: spec.columns,
    path: url.pathname,
    params: url.searchParams,
    defaultSort: spec.defaultSort,
  });
  return { ...section, degraded: answer.degraded };
}

/** How many records of each type an item has in BOMs (for the single-type redirect). */
export async function bomTypeCounts(itemNumber: string, context: RequestContext) {
  const service = getSearchService();
  const [asset, pm, other] = await Promise.all(
    (["asset", "pm", "other"] as const).map((type) => service.bom({ itemNumber, type, start: 0, rows: 0 }, context)),
  );
  return { asset: asset!.value.total, pm: pm!.value.total, other: other!.value.total };
}
