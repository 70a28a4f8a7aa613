import { useLocation, useNavigation } from "@remix-run/react";
import { BackupNotice } from "./backup-notice";
import { DownloadStarted } from "./download-started";
import { wantsSearchBoxFocus } from "./focus-state";
import { lazyPart } from "./hydration";
import { AppLink } from "./nav";
import { useEffect, useRef } from "react";
import type { SearchView, WiderSearchView } from "~/search/search-view";
import type { ExportDialogView } from "~/export/export-view";
import { ExportMenu, type ExportMenuView } from "./export-menu";
import { FacetPanel, FiltersJump, SelectedFilters } from "./facet-panel";
import { Pager } from "./pager";
import { PrintDate } from "./print-date";
import { ResultsTable } from "./results-table";
import { SearchWithin, SortForm } from "./search-toolbar";
import { SEARCH_PATH } from "~/search/paths";

const ACTION = SEARCH_PATH;
/** The dialog opens at its own URL (`?export=…`): its code is fetched only then, or when the menu opens. */
const ExportDialog = lazyPart(() => import("./export-dialog").then((m) => m.ExportDialog));
/** Said while a search is on its way: the spec's loading text, word for word (issue 29). */
const SEARCHING = "Searching for appliances...";

export interface SearchPageProps {
  view: SearchView | null;
  exportDialog?: ExportDialogView | null;
  exportMenu?: ExportMenuView | null;
  /** The file an export submitted without JavaScript is downloading (the dialog closed). */
  exportStarted?: string | null;
  didYouMean?: { query: string; href: string } | null;
  /** The whole search as a printable pick list (a document of its own). */
  pickListHref?: string | null;
  /** The query finds nothing under its filters but something without them. */
  widerSearch?: WiderSearchView | null;
  /** The query was a pasted list of numbers: how many named an item, and those that did not. */
  numberList?: { asked: number; found: number; missing: string[] } | null;
  error: { message: string; retryHref: string } | null;
  /** The backup notice of a degraded page: where its results came from. */
  backup?: string | null;
  emptyCatalog: boolean;
  recentSearches: { query: string; href: string }[];
  /** The filters served unfolded: this page follows a choice made in them. */
  filtersOpen?: boolean;
}

/** What a pasted list of numbers found: "3 of 4 numbers found. Not found: WR55X1". */
function NumberListNotice({ list }: { list: NonNullable<SearchPageProps["numberList"]> }) {
  return (
    <p className="number-list" role="note">
      {list.found} of {list.asked} numbers found
      {list.missing.length > 0 && (
        <>
          . Not found: <span className="number-list-missing">{list.missing.join(", ")}</span>
        </>
      )}
    </p>
  );
}

function SearchError({ error }: { error: { message: string; retryHref: string } }) {
  return (
    <section className="state-screen" role="alert" aria-labelledby="search-error-title">
      <h1 id="search-error-title">Search Error</h1>
      <p>{error.message}</p>
      <p className="actions">
        <a className="button" href={error.retryHref}>
          Try Again
        </a>
      </p>
    </section>
  );
}

function RecentSearches({ searches }: { searches: { query: string; href: string }[] }) {
  return (
    <nav className="recent-searches" aria-label="Recent searches">
      <h2>Recent searches</h2>
      <ul>
        {searches.map((r) => (
          <li key={r.query}>
            <AppLink to={r.href}>{r.query}</AppLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Search-within, and at the end Export, Print list and the sort. */
function Toolbar({ view, exportMenu, pickListHref }: { view: SearchView; exportMenu?: ExportMenuView | null | undefined; pickListHref?: string | null | undefined }) {
  return (
    <div className="toolbar">
      <SearchWithin terms={view.within} clearHref={view.clearWithinHref} disabledReason={view.withinDisabledReason} hidden={view.hidden} action={ACTION} />
      <div className="toolbar-end">
        {exportMenu && <ExportMenu menu={exportMenu} onOpen={ExportDialog.preload} />}
        {pickListHref && (
          <a href={pickListHref} className="button secondary small">
            Print list
          </a>
        )}
        <SortForm options={view.sortOptions} value={view.sortValue} hidden={view.hidden} action={ACTION} />
      </div>
    </div>
  );
}

/** No results: an empty catalogue says so; otherwise the spec's text, with Clear all filters when there are some. */
function NoResults({ view, emptyCatalog }: { view: SearchView; emptyCatalog: boolean }) {
  if (emptyCatalog) {
    return (
      <div className="empty">
        <h2>No products available</h2>
        <p>No products found in the catalog. Please check your configuration.</p>
      </div>
    );
  }
  return (
    <div className="empty">
      <p>No data found. Please try adjusting your search criteria</p>
      {view.selected.length > 0 && view.clearFiltersHref && (
        <p>
          <AppLink to={view.clearFiltersHref}>Clear all filters</AppLink>
        </p>
      )}
    </div>
  );
}

export function SearchPage({ view, error, backup, emptyCatalog, recentSearches, exportDialog, exportStarted, exportMenu, didYouMean, widerSearch, pickListHref, numberList, filtersOpen = false }: SearchPageProps) {
  const navigation = useNavigation();
  const location = useLocation();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);
  const lastQuery = useRef(view?.query);
  const searching = navigation.state === "loading" && navigation.location.pathname === ACTION;

  // After a client-side change of the same search (a filter, a page), focus the results heading so
  // screen readers hear the count and Tab leads to the first result. A new query keeps the focus in
  // the header's box, ready for the next scan.
  useEffect(() => {
    const queryChanged = lastQuery.current !== view?.query;
    lastQuery.current = view?.query;
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    if (wantsSearchBoxFocus(location.state)) document.getElementById("site-search")?.focus();
    else if (!queryChanged) headingRef.current?.focus();
    // Not on a jump within the page (the skip links): only when the search changed.
  }, [location.search, view?.query]);

  if (error) return <SearchError error={error} />;
  if (!view) return null;

  // The results come before the filters in the page (the first thing on a narrow screen, a few Tab
  // presses from the top); on a wide screen the grid shows the filters on the left. The export
  // dialog without JavaScript is the first thing after the header.
  return (
    <>
      {exportDialog && <ExportDialog.Part key={exportDialog.exportHref} dialog={exportDialog} />}
      <div className="search-layout">
        <section className="results" aria-labelledby="results-heading" aria-busy={searching}>
          {/* The filters follow the results in the page: one Tab press reaches them from the top. */}
          <a className="skip-link" href="#filters">
            Skip to filters
          </a>
          <p className="print-only print-meta">
            {view.printLine} · <PrintDate />
          </p>
          {recentSearches.length > 0 && <RecentSearches searches={recentSearches} />}
          <BackupNotice text={backup} />
          {exportStarted && <DownloadStarted href={exportStarted} />}
          <Toolbar view={view} exportMenu={exportMenu} pickListHref={pickListHref} />
          <div className="results-title">
            <h1 id="results-heading" ref={headingRef} tabIndex={-1} className={searching ? "results-heading is-stale" : "results-heading"}>
              {view.heading}
            </h1>
            <FiltersJump selected={view.selected.length} />
          </div>
          {widerSearch && (
            <p className="wider-search">
              {widerSearch.scope} — <AppLink to={widerSearch.href}>{widerSearch.label}</AppLink>
            </p>
          )}
          {numberList && <NumberListNotice list={numberList} />}
          {didYouMean && (
            <p className="did-you-mean">
              Did you mean <AppLink to={didYouMean.href}>{didYouMean.query}</AppLink>?
            </p>
          )}
          <p className="visually-hidden" aria-live="polite" role="status">
            {searching ? SEARCHING : view.heading}
          </p>
          {searching && (
            <p className="searching" aria-hidden="true">
              {SEARCHING}
            </p>
          )}
          <SelectedFilters selected={view.selected} clearHref={view.clearFiltersHref} notice={view.filterLimitNotice} />
          <div className={searching ? "results-body is-stale" : "results-body"}>
            {view.total === 0 ? (
              <NoResults view={view} emptyCatalog={emptyCatalog} />
            ) : (
              <>
                <ResultsTable columns={view.columns} locator={view.locatorColumn} rows={view.rows} links={view.rowLinks} />
                <Pager pager={view.pager} rowsPerPage={view.rowsPerPage} pageSizes={view.pageSizes} hidden={view.hidden} action={ACTION} />
              </>
            )}
          </div>
        </section>
        <FacetPanel facets={view.facets} selected={view.selected} hidden={view.hidden} open={filtersOpen} />
      </div>
    </>
  );
}

