import { json, redirect, type TypedResponse, type AppLoadContext } from "@remix-run/node";
import { buildExportDialog, exportScopeOf, isViewParam } from "~/export/export-dialog.server";
import { pageContext } from "~/web/http.server";
import { services } from "~/registry.server";
import type { RequestContext, SearchResponse } from "~/search/engine";
import { SearchError, userMessageOf } from "~/search/errors";
import { itemNumberOf } from "~/search/field-format";
import { headLinesPath, isQueryId, productPath, SEARCH_PATH, whereUsedPath, withBack } from "~/search/paths";
import { jumpKeyOf, jumpTarget, LIST_PARAM, listHref, numberListOf } from "~/search/query/number-jump";
import { pickListHref } from "~/search/pick-list-view";
import { PLAIN_SHELL, resultsShell } from "~/search/page-shell";
import type { SearchConfig } from "~/search/search-config";
import { totalPages } from "~/search/pager";
import { countRequestOf, pageRequestOf, resultsRequestOf } from "~/search/request";
import { buildSearchView, widerSearchOf } from "~/search/search-view";
import type { Answer } from "~/search/service";
import { EMPTY_STATE, goToPage, normalizeQuery, parseSearchParams, searchHref, serializeSearchState, withQuery, type SearchState } from "~/search/state";
import { requireUser } from "./sign-in.server";
import { backupOf, exportBackupText } from "./backup.server";
import { bomHeadOf } from "./bom-pages.server";
import { logFailure } from "./failure-log.server";
import { addRecentSearch, readRecentSearches, serializeRecentSearches } from "./recent-searches.server";
import { withSignals, type SignalInput, type Signalled } from "./page-signals.server";
import { facetClickOf } from "./signals-facets.server";

/**
 * Forms without JavaScript send untrimmed queries, defaults and parameters in form order; bad
 * values are read leniently. The page answers with a redirect to the canonical URL so the address
 * a user copies is always the clean, shareable one. View-only parameters (facet search, export
 * dialog) are kept.
 */
function canonicalRedirect(url: URL, state: SearchState, config: SearchConfig): string | null {
  const given = new URLSearchParams();
  const view: [string, string][] = [];
  for (const [name, value] of url.searchParams) {
    if (isViewParam(name) || name === LIST_PARAM) view.push([name, value]);
    else given.append(name, value);
  }
  const canonical = serializeSearchState(state, config);
  const key = (params: URLSearchParams) => [...params].map(([n, v]) => `${n}=${v}`).sort().join("&");
  if (key(given) === key(canonical)) return null;
  for (const [name, value] of view) canonical.append(name, value);
  const search = canonical.toString();
  return `${url.pathname}${search ? `?${search}` : ""}`;
}

/** The engine's spell-check collation as a link to the corrected search (filters kept). */
function didYouMeanOf(suggestions: string[], state: SearchState, config: SearchConfig) {
  const suggestion = suggestions.find((s) => s.trim() && s.trim().toLowerCase() !== state.q.toLowerCase());
  if (!suggestion || !state.q) return null;
  return { query: suggestion, href: searchHref(withQuery(state, suggestion), config) };
}

function exportMenuOf(state: SearchState, config: SearchConfig, shown: number, total: number) {
  const href = (scope: "all" | "page") => {
    const params = serializeSearchState(state, config);
    params.set("export", scope);
    return `${SEARCH_PATH}?${params}`;
  };
  return { allHref: href("all"), pageHref: href("page"), shown, total };
}


/** Facet search terms typed without JavaScript: `facet-<key>=term`. */
function facetTermsOf(params: URLSearchParams): Record<string, string> {
  const terms: Record<string, string> = {};
  for (const [name, value] of params) {
    if (name.startsWith("facet-") && value.trim()) terms[name.slice("facet-".length)] = value.trim().slice(0, 100);
  }
  return terms;
}

/** The usage signals of a search (and of the facet click that led to it); with Fusion's query id when Fusion answered. */
function searchSignals(request: Request, state: SearchState, answer: Answer<SearchResponse>, queryId: string | undefined): SignalInput[] {
  const search: SignalInput = {
    type: "search",
    data: {
      query: state.q,
      numResults: answer.value.total,
      searchTime: Math.round(answer.engineMs),
      filters: state.filters.map((f) => ({ field: f.field, value: f.value, type: f.type })),
      page: state.page,
      engine: answer.engine,
      collection: collectionOf(answer.engine),
      ...(queryId ? { fusionQueryId: queryId } : {}),
    },
  };
  const facet = facetClickOf(request, state, services().searchConfig);
  return facet ? [search, { type: "facet", data: facet }] : [search];
}

/** The collection a search signal names (spec §7): Fusion's, or the engine that answered instead. */
function collectionOf(engine: string): string {
  const { fusion } = services().config;
  return engine === "fusion" && fusion ? (fusion.collection ?? fusion.app) : engine;
}

type PageContext = RequestContext & { requestId: string };

/**
 * A fresh search that is exactly one item's item number or manufacturer part number opens that
 * item (a redirect, so it works without JavaScript and the search is one Back away); the item
 * page's Back leads to the list. Its signals are a search and a click. A failed look-up shows the list.
 */
async function jumpToItem(request: Request, url: URL, state: SearchState, config: SearchConfig, context: PageContext): Promise<Signalled<TypedResponse<never>> | null> {
  const key = jumpKeyOf(state, url.searchParams);
  if (!key || [...url.searchParams.keys()].some(isViewParam)) return null;
  const answer = await services().search.findByNumber(state.q, 2, context).catch((error: unknown) => {
    logFailure("the look-up of a number", error, context);
    return null;
  });
  const doc = answer ? jumpTarget(answer.value, key) : null;
  if (!answer || !doc) return jumpToHead(url, state, config, context);
  const itemNumber = itemNumberOf(doc);
  const list = listHref(searchHref(state, config));
  const signals: SignalInput[] = [
    ...searchSignals(request, state, { ...answer, value: { docs: [doc], total: 1, facets: [], highlighting: {}, suggestions: [] } }, undefined),
    // The jump is the click on the one result the search would have listed.
    { type: "click", data: { docId: doc.id, position: 0, query: state.q, title: itemNumber, url: productPath(itemNumber), itemNumber } },
  ];
  return withSignals(redirect(withBack(productPath(itemNumber), list)), signals);
}

/**
 * A fresh search that is exactly the number heading a BOM (an asset, PM kit or tool, which are no
 * catalogue items) opens that BOM's lines (decision 037); its way back is the list.
 */
async function jumpToHead(url: URL, state: SearchState, config: SearchConfig, context: PageContext): Promise<Signalled<TypedResponse<never>> | null> {
  const head = await bomHeadOf(state.q.trim(), context);
  if (!head) return null;
  return withSignals(redirect(withBack(headLinesPath(head), listHref(searchHref(state, config)))), []);
}

/**
 * How many the query finds without its filters, asked only when the filters left nothing (a count,
 * no rows or facets). A failure of this second look-up leaves the page as it was.
 */
async function widerSearch(request: Request, state: SearchState, config: SearchConfig, requestId: string) {
  if (state.filters.length === 0) return null;
  const count = (of: SearchState) =>
    services()
      .search.search(countRequestOf(of), { requestId, signal: request.signal })
      .then((answer) => answer.value, () => null);
  const unfiltered = await count({ ...state, filters: [] });
  if (!unfiltered) return null;
  if (unfiltered.total > 0) return { widerSearch: widerSearchOf(state, config, unfiltered.total), didYouMean: null };
  // A typo finds nothing anywhere: the catalogue's correction, with the filters when it finds
  // something there, else in all items, with how many it finds there.
  const corrected = didYouMeanOf(unfiltered.suggestions, state, config);
  if (!corrected) return null;
  const withFilters = withQuery(state, corrected.query);
  if (((await count(withFilters))?.total ?? 0) > 0) return { widerSearch: null, didYouMean: corrected };
  const everywhere = (await count({ ...withFilters, filters: [] }))?.total ?? 0;
  return { widerSearch: widerSearchOf(withFilters, config, everywhere), didYouMean: { query: corrected.query, href: searchHref({ ...withFilters, filters: [], page: 1 }, config) } };
}

/**
 * The items of a pasted list of numbers (numberListOf), each looked up as a scanned number is, in
 * the list's order, with the numbers that name no item; null when none names one (the query is
 * then searched as text, as before).
 */
async function lookUpNumbers(numbers: string[], context: PageContext): Promise<{ answer: Answer<SearchResponse>; notice: { asked: number; found: number; missing: string[] } } | null> {
  const { search: service } = services();
  const found = await Promise.all(numbers.map((number) => service.findByNumber(number, 2, context)));
  const docs = [...new Map(found.flatMap((answer) => answer.value).map((doc) => [doc.id, doc])).values()].slice(0, 100);
  if (docs.length === 0) return null;
  const missing = numbers.filter((_, i) => found[i]!.value.length === 0);
  const last = found.at(-1)!;
  return {
    answer: { ...last, value: { docs, total: docs.length, facets: [], highlighting: {}, suggestions: [] }, degraded: found.some((a) => a.degraded) },
    notice: { asked: numbers.length, found: numbers.length - missing.length, missing },
  };
}

/**
 * The redirects a results URL may answer with before any search: the header's "Search all items"
 * without JavaScript, a number that opens its item (returned with its signals), and the canonical URL.
 */
async function redirectFirst(request: Request, url: URL, state: SearchState, config: SearchConfig, context: PageContext) {
  // The header's untouched box without JavaScript is sent empty with the page's query in `was`
  // (docs/decisions/042): the query stays. A typed or scanned query replaces it.
  // Only the untouched box's `q=`: a typed `*:*` or blank (spaces) still means every item.
  const was = url.searchParams.get("q") === "" ? normalizeQuery(url.searchParams.get("was") ?? "") : "";
  // The header's "Search all items" without JavaScript: the query alone, without the refinement
  // its form carried along (docs/decisions/015).
  if (url.searchParams.get("all") === "1") throw redirect(searchHref({ ...EMPTY_STATE, q: state.q || was }, config));
  if (was) throw redirect(searchHref({ ...state, q: was, page: 1 }, config));
  // Before the canonical redirect: a number typed with stray spaces opens its item in one hop.
  const jump = await jumpToItem(request, url, state, config, context);
  if (jump) return jump;
  const canonical = canonicalRedirect(url, state, config);
  if (canonical) throw redirect(canonical);
  return null;
}

/** The export dialog asked for by the URL (`export=all|page`), with its preview rows; null without one. */
async function exportDialogOf(url: URL, state: SearchState, answer: Answer<SearchResponse>, requestId: string) {
  const scope = exportScopeOf(url.searchParams);
  if (!scope) return null;
  const { search: service, searchConfig: config, config: settings } = services();
  const previewDocs =
    scope === "page" || state.page === 1
      ? answer.value.docs
      : (await service.search(pageRequestOf(state, 0, 3), { requestId })).value.docs;
  const backupText = exportBackupText();
  return buildExportDialog({
    params: url.searchParams,
    state,
    config,
    scope,
    total: answer.value.total,
    previewDocs,
    limit: settings.exportLimit,
    cap: settings.exportCap,
    ...(backupText ? { backup: { text: backupText, pageFromBackup: answer.degraded } } : {}),
  });
}

/** The page's headers (timing, no caching) and its query added to the recent searches, with their cookie when they changed. */
async function headersAndRecent(request: Request, state: SearchState, answer: Answer<SearchResponse>, started: number) {
  const recent = await readRecentSearches(request);
  const headers = new Headers({
    "Server-Timing": `engine;dur=${answer.engineMs.toFixed(1)}, app;dur=${(performance.now() - started - answer.engineMs).toFixed(1)}`,
    "Cache-Control": "private, no-store",
  });
  if (!state.q) return { headers, recentSearches: recent };
  const recentSearches = addRecentSearch(recent, state.q);
  if (recentSearches.join("\n") !== recent.join("\n")) headers.append("Set-Cookie", await serializeRecentSearches(recentSearches));
  return { headers, recentSearches };
}

/** The page when the search failed: the spec's message and a retry; 400 for a query the engine refused, else 503. */
function failedSearchPage(error: unknown, url: URL, request: Request, requestId: string) {
  logFailure("search", error, { requestId, signal: request.signal });
  return json(
    {
      view: null,
      shell: PLAIN_SHELL,
      exportDialog: null,
      exportMenu: null,
      pickListHref: null,
      didYouMean: null,
      widerSearch: null,
      degraded: false,
      backup: null,
      error: { message: userMessageOf(error), retryHref: `${url.pathname}${url.search}` },
      emptyCatalog: false,
      recentSearches: [] as { query: string; href: string }[],
    },
    // A query the engine refused is the request's fault (400, as /api/search answers); anything else the service's.
    { status: error instanceof SearchError && error.kind === "bad-request" ? 400 : 503, headers: { "Cache-Control": "no-store" } },
  );
}

/** Loads a search results page from its URL, with its usage signals: the search route and the home page share it. */
export async function loadSearchPage(request: Request, loadContext: AppLoadContext, options: { home?: boolean } = {}) {
  await requireUser(request, loadContext);
  const url = new URL(request.url);
  const whereUsed = url.searchParams.get("where-used")?.trim();
  if (whereUsed) throw redirect(whereUsedPath(whereUsed));
  const { search: service, searchConfig: config, config: settings } = services();
  const parsed = parseSearchParams(options.home ? new URLSearchParams() : url.searchParams, config);
  // A pasted list of numbers lists exactly those items, on one page.
  const numbers = options.home ? null : numberListOf(parsed, url.searchParams);
  const state: SearchState = numbers ? { ...parsed, rows: 100 } : parsed;
  // One deadline for the page's calls to the platform: the number's look-up and the search.
  const context = pageContext(request, loadContext);
  const requestId = context.requestId;
  const jump = options.home ? null : await redirectFirst(request, url, parsed, config, context);
  if (jump) return jump;
  const started = performance.now();
  try {
    const listed = numbers ? await lookUpNumbers(numbers, context) : null;
    const answer = listed?.answer ?? (await service.search(resultsRequestOf(state, config), context));
    const { total } = answer.value;
    const pages = totalPages(total, state.rows);
    // A page past the end shows the last page rather than an empty page with a wrong count.
    if (total > 0 && state.page > pages) throw redirect(searchHref(goToPage(state, pages), config));

    // Fusion's id of this search, when it is one that may travel in a link (rows) and a signal.
    const queryId = answer.value.queryId && isQueryId(answer.value.queryId) ? answer.value.queryId : undefined;
    const facetTerms = facetTermsOf(url.searchParams);
    const view = buildSearchView({
      state,
      response: answer.value,
      config,
      facetTerms,
      imageHosts: settings.imageHosts,
      ...(queryId ? { queryId } : {}),
    });
    // A search, not the home page's list nor a dialog or a facet's value search over the same results.
    const isSearch = !options.home && ![...url.searchParams.keys()].some(isViewParam);
    const { headers, recentSearches } = await headersAndRecent(request, state, answer, started);
    /** What a search that found nothing offers: the engine's correction, and what the query finds without its filters. */
    const rescueOf = async (found: number) => {
      const didYouMean = didYouMeanOf(answer.value.suggestions, state, config);
      const wider = found === 0 ? await widerSearch(request, state, config, requestId) : null;
      return { didYouMean: didYouMean ?? wider?.didYouMean ?? null, widerSearch: wider?.widerSearch ?? null };
    };
    const dialog = await exportDialogOf(url, state, answer, requestId);
    const page = json(
      {
        view,
        shell: resultsShell(view, Boolean(dialog && !dialog.startedHref)),
        // An export submitted without JavaScript: the dialog closes and the page starts the download.
        exportDialog: dialog?.startedHref ? null : dialog,
        exportStarted: dialog?.startedHref ?? null,
        ...(await rescueOf(total)),
        // A list's export and pick list would be the query's full-text search, not the list.
        exportMenu: total > 0 && !listed ? exportMenuOf(state, config, answer.value.docs.length, total) : null,
        pickListHref: total > 0 && !listed ? pickListHref(state, config) : null,
        numberList: listed?.notice ?? null,
        // After a choice in the panel it stays unfolded, without JavaScript too (no fragment: decision 025).
        filtersOpen: facetClickOf(request, state, config) !== null || Object.keys(facetTerms).length > 0,
        degraded: answer.degraded,
        backup: backupOf(answer),
        error: null,
        emptyCatalog: total === 0 && !state.q && state.filters.length === 0 && state.within.length === 0,
        // The home page lists them; a results page only records its query among them.
        recentSearches: (options.home ? recentSearches : []).map((q) => ({ query: q, href: searchHref({ ...state, q, page: 1, filters: [], within: [], sort: null }, config) })),
      },
      { headers },
    );
    return withSignals(page, isSearch ? searchSignals(request, state, answer, queryId) : []);
  } catch (error) {
    if (error instanceof Response) throw error;
    return failedSearchPage(error, url, request, requestId);
  }
}

/** The search page's own headers (timing, no caching) for the document answer. */
export function pickHeaders(loaderHeaders: Headers): Headers {
  const out = new Headers();
  for (const name of ["Server-Timing", "Cache-Control"]) {
    const value = loaderHeaders.get(name);
    if (value) out.set(name, value);
  }
  return out;
}
