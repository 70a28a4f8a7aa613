import { PickList } from "~/components/pick-list";
import { services } from "~/registry.server";
import type { Doc } from "~/search/engine";
import { userMessageOf } from "~/search/errors";
import { buildPickList, PICK_LIST_CAP } from "~/search/pick-list-view";
import { searchRequestOf } from "~/search/search-view";
import { parseSearchParams, searchHref } from "~/search/state";
import { requireUser } from "./auth.server";
import { backupOf } from "./backup.server";
import { requestIdOf } from "./http.server";
import { logFailure } from "./log.server";
import { problemPage, staticDocument } from "./problem-page.server";

/** Rows asked of the engine at once: the size of the search page's largest page. */
const BATCH = 100;

/**
 * GET /crib-search/pick-list?<the search's parameters>: the search as a printable pick list, every
 * row up to PICK_LIST_CAP (docs/decisions/027). A document of its own without scripts, so it is
 * the same with JavaScript, without it and in lite mode, and the results page stays small.
 */
export async function loadPickList(request: Request): Promise<Response> {
  await requireUser(request);
  const url = new URL(request.url);
  const { search: service, searchConfig: config } = services();
  const state = parseSearchParams(url.searchParams, config);
  const requestId = requestIdOf(request);
  const docs: Doc[] = [];
  let total = 0;
  let backup: string | null = null;
  try {
    for (let start = 0; start < PICK_LIST_CAP; start += BATCH) {
      const page = { ...searchRequestOf(state, config), start, rows: Math.min(BATCH, PICK_LIST_CAP - start), facetFields: [], highlight: false };
      const answer = await service.search(page, { requestId, signal: request.signal });
      total = answer.value.total;
      docs.push(...answer.value.docs);
      backup ??= backupOf(answer);
      if (start + BATCH >= total || answer.value.docs.length === 0) break;
    }
  } catch (error) {
    logFailure("pick list", error, { requestId, signal: request.signal });
    return problemPage(userMessageOf(error), 503, { backHref: searchHref(state, config), retryHref: `${url.pathname}${url.search}` });
  }
  const list = buildPickList({ state, config, docs, total, now: new Date() });
  return staticDocument(`Pick list: ${list.heading}`, <PickList list={list} backup={backup} />, 200);
}
