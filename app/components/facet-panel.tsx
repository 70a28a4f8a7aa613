import { HiddenInputs } from "./hidden-inputs";
import { useHydrated, WithoutScript } from "./hydration";
import { AppForm, AppLink } from "./nav";
import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from "react";
import type { FacetView, SelectedFilterView } from "~/search/search-view";
import { filterToggleHref } from "~/search/state";
import { SEARCH_PATH } from "~/search/paths";

interface FacetPanelProps {
  facets: FacetView[];
  selected: SelectedFilterView[];
  hidden: [string, string][];
  /** Served unfolded: the page follows a choice made in the panel (a facet value or its search). */
  open?: boolean;
}

/** The panel's values, inside its disclosure: a link to them unfolds it (HTML's fragment navigation). */
const GROUPS_ID = "filter-groups";

/** Where the filters take the left column beside the results (the stylesheet's breakpoint). */
const WIDE = "(min-width: 901px)";

/**
 * The filters, in a disclosure "Filters (n selected)", served folded: a narrow screen shows the
 * results and this one line until someone opens it, with or without JavaScript; a wide screen
 * shows the filters all the same (app.css). With JavaScript a wide screen opens the disclosure,
 * so that it says what it shows, and its summary folds and unfolds it on every screen.
 */
export function FacetPanel({ facets, selected, hidden, open = false }: FacetPanelProps) {
  const hydrated = useHydrated();
  const disclosure = useRef<HTMLDetailsElement>(null);
  // Its `open` is the browser's (not React's), so a fold survives new results.
  useEffect(() => {
    if (disclosure.current && window.matchMedia(WIDE).matches) disclosure.current.open = true;
  }, []);
  return (
    <aside className="facet-panel" id="filters" tabIndex={-1} aria-labelledby="filters-title">
      <details ref={disclosure} className={hydrated ? "filters" : "filters unfolded-wide"} open={open || undefined}>
        <summary className="filters-summary">
          <h2 id="filters-title">Filters</h2>
          {selected.length > 0 && <span className="filters-count"> ({selected.length} selected)</span>}
        </summary>
        <div id={GROUPS_ID}>
          {facets.every((facet) => facet.values.length === 0) ? (
            <p className="muted">No filters available</p>
          ) : (
            facets.map((facet) => <FacetGroup key={facet.field} facet={facet} hidden={hidden} />)
          )}
        </div>
      </details>
    </aside>
  );
}

/**
 * On a narrow screen, where the filters follow the results: "Filters (n)" beside the results
 * heading, which unfolds the panel and goes to it. Without JavaScript it is a link into the folded
 * disclosure, which browsers unfold for it; with JavaScript it unfolds the panel and focuses its summary.
 */
export function FiltersJump({ selected }: { selected: number }) {
  const hydrated = useHydrated();
  return (
    <a href={`#${GROUPS_ID}`} className="filters-jump button secondary small" onClick={hydrated ? openFilters : undefined}>
      Filters{selected > 0 ? ` (${selected})` : ""}
    </a>
  );
}

function openFilters(event: MouseEvent<HTMLAnchorElement>) {
  const disclosure = document.querySelector<HTMLDetailsElement>("#filters details.filters");
  const summary = disclosure?.querySelector("summary");
  if (!disclosure || !summary) return;
  event.preventDefault();
  disclosure.open = true;
  summary.scrollIntoView({ block: "start" });
  summary.focus({ preventScroll: true });
}

/**
 * The active filters as removable chips with their count and Clear All, right above the results at
 * every width (issue 29: in the folded panel they were 2,700 px down on a phone). A page loaded
 * without JavaScript after a filter click opens at its top, where these are on the first screen: a
 * fragment would land lower but would keep the browser from focusing the search box for the next
 * scan (HTML skips `autofocus` when the address names an element; docs/decisions/025).
 */
export function SelectedFilters({ selected, clearHref, notice }: { selected: SelectedFilterView[]; clearHref: string | null; notice: string | null }) {
  if (selected.length === 0) return null;
  return (
    <section className="selected-filters" aria-labelledby="selected-title">
      <h2 id="selected-title">Selected Filters:</h2>
      <span className="filters-count">({selected.length})</span>
      <ul>
        {selected.map((f) => {
          const is = f.type === "include" ? "is" : "is not";
          return (
            <li key={`${f.field}:${f.type}:${f.value}`} className={`chip chip-${f.type}`}>
              <span>
                {f.label} {is} <strong>{f.value}</strong>
              </span>
              <AppLink to={f.removeHref} aria-label={`Remove filter: ${f.label} ${is} ${f.value}`}>
                ×
              </AppLink>
            </li>
          );
        })}
      </ul>
      {clearHref && (
        <AppLink to={clearHref} className="text-button">
          Clear All
        </AppLink>
      )}
      {notice && (
        <p className="muted small" role="status">
          {notice}
        </p>
      )}
    </section>
  );
}

function FacetGroup({ facet, hidden }: { facet: FacetView; hidden: [string, string][] }) {
  const [term, setTerm] = useState(facet.term);
  const hydrated = useHydrated();
  // A term typed into the box belongs to one search: a new search starts from the URL's term.
  const search = hidden.map(([name, value]) => `${name}=${value}`).join("&");
  useEffect(() => setTerm(facet.term), [search, facet.term]);
  const needle = term.trim().toLowerCase();
  const shown = needle ? facet.values.filter((v) => v.value.toLowerCase().includes(needle)) : facet.values;
  const inputId = `facet-search-${facet.key}`;
  return (
    <details className="facet" open={facet.open}>
      <summary>
        <h3>{facet.label}</h3>
      </summary>
      {facet.searchable && (
        <AppForm action={SEARCH_PATH} className="facet-search" onSubmit={(e) => e.preventDefault()}>
          <HiddenInputs params={hidden} />
          <label htmlFor={inputId} className="visually-hidden">
            Search {facet.label} values
          </label>
          <input
            id={inputId}
            type="search"
            name={`facet-${facet.key}`}
            value={term}
            placeholder={`Search ${facet.label}`}
            onChange={(e) => setTerm(e.currentTarget.value)}
            autoComplete="off"
          />
          <WithoutScript>
            <button type="submit" className="small">
              Find
            </button>
          </WithoutScript>
        </AppForm>
      )}
      {facet.values.length === 0 ? (
        <p className="muted">No options available</p>
      ) : shown.length === 0 ? (
        <p className="muted">No options found for &quot;{term.trim()}&quot;</p>
      ) : (
        <>
          {needle && (
            <p className="muted small" aria-live="polite">
              Showing {shown.length} of {facet.values.length} options
            </p>
          )}
          <ul className="facet-values" onKeyDown={moveBetweenValues}>
            {shown.map((v) => (
              <li key={v.value} className={v.selected ? `is-${v.selected}` : undefined}>
                <AppLink
                  to={filterToggleHref(hidden, facet.param, v.value, v.selected, "include")}
                  className="facet-value"
                  aria-label={`${v.selected === "include" ? "Stop including" : "Include"} ${facet.label}: ${v.value}`}
                >
                  {/* Spaces between name, count and exclude control: text browsers and copied text
                      read "Pumps 155 −", not "Pumps155−"; the grid and flex layout ignore them. */}
                  <span className="facet-name">{v.value}</span> <span className="count">{v.count}</span>
                </AppLink>{" "}
                {v.selected && <span className="visually-hidden">{v.selected === "include" ? "(included)" : "(excluded)"}</span>}
                <AppLink
                  to={filterToggleHref(hidden, facet.param, v.value, v.selected, "exclude")}
                  className={`facet-toggle exclude${v.selected === "exclude" ? " on" : ""}`}
                  aria-label={`${v.selected === "exclude" ? "Stop excluding" : "Exclude"} ${facet.label}: ${v.value}`}
                  title={v.selected === "exclude" ? "Remove this filter" : "Hide this value"}
                  // With JavaScript the value is the list's one tab stop per value; the arrow keys
                  // reach its exclude control (onKeyDown of the list). Without, both are tab stops.
                  tabIndex={hydrated ? -1 : undefined}
                >
                  −
                </AppLink>
              </li>
            ))}
          </ul>
        </>
      )}
    </details>
  );
}

/**
 * Arrow keys in a value list: Right and Left move between a value and its exclude control, Down
 * and Up to the next and previous value.
 */
function moveBetweenValues(event: KeyboardEvent<HTMLUListElement>) {
  const link = event.target instanceof HTMLElement ? event.target.closest("a") : null;
  const item = link?.closest("li");
  if (!link || !item) return;
  let next: Element | null | undefined = null;
  if (event.key === "ArrowRight") next = item.querySelector(".facet-toggle");
  else if (event.key === "ArrowLeft") next = item.querySelector(".facet-value");
  else if (event.key === "ArrowDown") next = item.nextElementSibling?.querySelector(".facet-value");
  else if (event.key === "ArrowUp") next = item.previousElementSibling?.querySelector(".facet-value");
  if (next instanceof HTMLElement && next !== link) {
    event.preventDefault();
    next.focus();
  }
}
