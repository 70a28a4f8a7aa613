import type { AppLoadContext } from "@remix-run/node";
import { PickList } from "~/components/pick-list";
import { services } from "~/registry.server";
import type { Doc } from "~/search/engine";
import { userMessageOf } from "~/search/errors";
import { catalogField } from "~/search/catalog-fields";
import { buildPickList, PICK_LIST_CAP, pickListOrderOf } from "~/search/pick-list-view";
import { pageRequestOf } from "~/search/request";
import { parseSearchParams, searchHref } from "~/search/state";
import { requireUser } from "./sign-in.server";
import { backupOf } from "./backup.server";
import { requestIdOf } from "./http.server";
import { logFailure } from "./failure-log.server";
import { problemPage, staticDocument } from "./problem-page.server";

/** The stock locator's index field: the walking order's. */
const LOCATOR_FIELD = catalogField("stock_locator")!.name;
/** Rows asked of the engine at once: the size of the search page's largest page. */
const BATCH = 100;

/**
 * GET /crib-search/pick-list?<the search's parameters>: the search as a printable pick list, every
 * row up to PICK_LIST_CAP (docs/decisions/027). A document of its own without scripts, so it is
 * the same with JavaScript, without it and in lite mode, and the results page stays small.
 */
export async function loadPickList(request: Request, loadContext: AppLoadContext): Promise<Response> {
  await requireUser(request, loadContext);
  const url = new URL(request.url);
  const { search: service, searchConfig: config } = services();
  const state = parseSearchParams(url.searchParams, config);
  const order = pickListOrderOf(url.searchParams);
  // In walking order the engine is asked by stock locator, so a list past the cap holds the crib's first aisles, not the best matches.
  const asked = order === "walk" ? { ...state, sort: { field: LOCATOR_FIELD, direction: "asc" as const } } : state;
  const requestId = requestIdOf(request, loadContext);
  const docs: Doc[] = [];
  let total = 0;
  let backup: string | null = null;
  try {
    for (let start = 0; start < PICK_LIST_CAP; start += BATCH) {
      const answer = await service.search(pageRequestOf(asked, start, Math.min(BATCH, PICK_LIST_CAP - start)), { requestId, signal: request.signal });
      total = answer.value.total;
      docs.push(...answer.value.docs);
      backup ??= backupOf(answer);
      if (start + BATCH >= total || answer.value.docs.length === 0) break;
    }
  } catch (error) {
    logFailure("pick list", error, { requestId, signal: request.signal });
    return problemPage(userMessageOf(error), 503, { backHref: searchHref(state, config), retryHref: `${url.pathname}${url.search}` });
  }
  const list = buildPickList({ state, config, docs, total, now: new Date(), order });
  return staticDocument(`Pick list: ${list.heading}`, <PickList list={list} backup={backup} />, 200);
}
