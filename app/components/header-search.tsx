import { useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { HiddenInputs } from "./hidden-inputs";
import { lazyPart, useHydrated } from "./hydration";
import { AppForm } from "./nav";
import { usePageKeys } from "./scan-keys";
import type { PageShell } from "~/search/page-shell";
import { SEARCH_PATH } from "~/search/paths";
import type { SearchBoxAttributes } from "./search-input";

/** The header's search: the page's part (its `shell`) and the portal's switches (the root loader's). */
export interface HeaderSearchView extends Pick<PageShell, "query" | "keep" | "autoFocus"> {
  /** Type-ahead switched on by the server (TYPEAHEAD_ENABLED): only then is its code fetched. */
  typeahead: boolean;
  /** Usage signals recorded (SIGNALS_ENABLED): a pick from the type-ahead list is one. */
  signals: boolean;
}

const Typeahead = lazyPart(() => import("./search-input").then((m) => m.SearchInput), PlainBox);

/** The box without type-ahead: a plain input whose form is submitted. */
function PlainBox({ box: { query, ...box } }: { box: SearchBoxAttributes; signals?: boolean }) {
  return (
    <div className="search-input">
      <input key={query} {...box} />
    </div>
  );
}

function searchBoxAttributes(query: string, autoFocus: boolean): SearchBoxAttributes {
  return {
    id: "site-search",
    type: "search",
    name: "q",
    // A box that takes the focus is served empty, the query shown as its placeholder: a browser
    // puts the caret of an autofocused box before its text, so a scan would land in front of the
    // old query (docs/decisions/025). With JavaScript the query comes back in, selected.
    placeholder: (autoFocus && query) || "Search",
    defaultValue: autoFocus ? "" : query,
    query,
    maxLength: 500,
    autoComplete: "off",
    // Rendered as `autofocus`, so a scan needs no click even without JavaScript.
    autoFocus,
    enterKeyHint: "search",
  };
}

/**
 * The header's search form. A barcode scan is keystrokes and Enter: the box has the focus when a
 * page loads (`autofocus`, so also without JavaScript), keeps the query, and a new query keeps the
 * filters, sort and page size unless "Search all items" is ticked. With JavaScript, `/` focuses
 * the box, a navigation that leaves the focus nowhere puts it back in the box, and a scan typed
 * while something else has the focus is searched from the box all the same.
 */
export function HeaderSearch({ search }: { search: HeaderSearchView }) {
  const hydrated = useHydrated();
  const [everything, setEverything] = useState(false);
  const location = useLocation();
  const firstLocation = useRef(true);
  // One object while the query stays: the type-ahead is memoised on it.
  const box = useMemo(() => searchBoxAttributes(search.query, search.autoFocus), [search.query, search.autoFocus]);
  usePageKeys("site-search");

  // The box served empty gets its query back, selected, so the scanned keystrokes replace it: only
  // while it has the focus and nothing was typed. Before the browser's autofocus ran, the text
  // would get a caret at its end and a scan would append to it; then the box stays empty.
  useEffect(() => {
    const box = document.getElementById("site-search");
    if (!search.autoFocus || !(box instanceof HTMLInputElement) || box.value || document.activeElement !== box) return;
    box.value = search.query;
    box.select();
  }, [search.query, search.autoFocus]);

  useEffect(() => {
    if (firstLocation.current) {
      firstLocation.current = false;
      return;
    }
    setEverything(false);
    // After the page's own focus handling (the results heading, the dialog's title).
    const frame = requestAnimationFrame(() => {
      const active = document.activeElement;
      const box = document.getElementById("site-search");
      if ((!active || active === document.body) && !document.querySelector("dialog[open]") && box instanceof HTMLInputElement) {
        // Where the page was scrolled back to stays (a list returned to from an item).
        box.focus({ preventScroll: true });
        // A new query's box is a new, empty one: its query goes in now that it has the focus.
        if (!box.value && search.autoFocus) box.value = search.query;
        box.select();
      }
    });
    return () => cancelAnimationFrame(frame);
  }, [location.pathname, location.search]);

  return (
    <AppForm action={SEARCH_PATH} role="search" className="search-bar">
      <label htmlFor="site-search" className="visually-hidden">
        Search the catalogue
      </label>
      {search.typeahead ? (
        <Typeahead.Part box={box} signals={search.signals} />
      ) : (
        <PlainBox box={box} />
      )}
      {/* Without JavaScript the autofocused box is served empty (docs/decisions/042): the page's
          query goes along so that Search on the untouched box keeps it; a typed or scanned query wins. */}
      {search.autoFocus && search.query && <input type="hidden" name={hydrated ? undefined : "was"} value={search.query} />}
      <button type="submit">Search</button>
      {search.keep.length > 0 && (
        <div className="search-scope">
          {/* Without JavaScript the server drops the kept parameters when `all` is sent. */}
          <HiddenInputs params={everything ? [] : search.keep} />
          <label>
            <input
              type="checkbox"
              name={hydrated ? undefined : "all"}
              value="1"
              checked={everything}
              onChange={(e) => setEverything(e.currentTarget.checked)}
            />{" "}
            Search all items <span className="muted">(new queries keep the filters, sort and page size)</span>
          </label>
        </div>
      )}
      <NavProgress />
    </AppForm>
  );
}

/** A thin bar at the top of the window while a navigation takes longer than 300 ms. */
function NavProgress() {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!busy) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), 300);
    return () => clearTimeout(timer);
  }, [busy]);
  return <div className={shown ? "nav-progress is-active" : "nav-progress"} aria-hidden="true" />;
}
