/**
 * Shared helpers of the search-page journeys. Every journey runs in the `js` and the `nojs` project
 * with the same assertions; the helpers hide the few places where the two differ (waiting for
 * hydration, pressing a submit button that only exists without JavaScript).
 */
import { expect, type APIRequestContext, type Locator, type Page, type Response, type TestInfo } from "@playwright/test";
import * as probes from "../catalogue-probes";
import type { ApiFacet, ApiSearch, ApiSearchParams, BomCounts, ComponentUses, GetText, HeadLineRow, ProbeOptions } from "../catalogue-probes";
import { HOME_PATH, SEARCH_PATH, searchUrl, urlWith } from "../search-urls";

export { HOME_PATH, SEARCH_PATH, searchUrl, urlWith };
export { exportDates, headingText, type ApiFacet, type ApiSearch, type BomCounts, type HeadLineRow } from "../catalogue-probes";

/** Facet keys (URL names) and the labels the panel shows. */
export const FACET_LABELS = {
  org_code: "Org Code",
  category: "Category",
  manufacturer: "Manufacturer",
  status: "Status",
  item_type: "Item Type",
} as const;
export type FacetKey = keyof typeof FACET_LABELS;

export function isJs(testInfo: TestInfo): boolean {
  return testInfo.project.use.javaScriptEnabled !== false;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The current URL's path and query, e.g. `/crib-search/search?q=pump`. */
export function currentPath(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

export function currentParams(page: Page): URLSearchParams {
  return new URL(page.url()).searchParams;
}

/**
 * With JavaScript, waits until React has hydrated the search page: React has taken over the page,
 * and the first client effect has run (the filters' disclosure drops the class that unfolds it on
 * wide screens without JavaScript; a page without filters has the first check alone). Without
 * JavaScript there is nothing to wait for.
 */
export async function waitForHydration(page: Page, testInfo: TestInfo): Promise<void> {
  if (!isJs(testInfo)) return;
  await waitForReact(page, testInfo);
  await expect(page.locator("#filters details.unfolded-wide")).toHaveCount(0);
}

/** Opens a search-page URL and, with JavaScript, waits for hydration. */
export async function openSearch(page: Page, testInfo: TestInfo, url: string): Promise<void> {
  const response = await page.goto(url);
  expect(response?.status(), `status of ${url}`).toBe(200);
  await expect(resultsHeading(page)).toBeVisible();
  await waitForHydration(page, testInfo);
}

export function resultsHeading(page: Page): Locator {
  return page.locator("#results-heading");
}


/** The total shown in the results heading. */
export async function shownTotal(page: Page): Promise<number> {
  const text = (await resultsHeading(page).textContent()) ?? "";
  const match = /^(\d+) results?\b/.exec(text.trim());
  if (!match) throw new Error(`unexpected results heading: ${text}`);
  return Number(match[1]);
}

/** The main search box in the header, and submitting it like a user (Enter). */
export function headerSearch(page: Page): Locator {
  return page.locator("#site-search");
}

/**
 * The header box shows the page's query: served empty with the query as its placeholder when it
 * takes the focus, so a scan replaces it (docs/decisions/025); JavaScript puts the query back in,
 * selected, when the box already had the focus as the page hydrated.
 */
export async function expectBoxQuery(page: Page, testInfo: TestInfo, query: string): Promise<void> {
  const box = headerSearch(page);
  if (isJs(testInfo) && (await box.inputValue()) !== "") {
    await expect(box).toHaveValue(query);
  } else {
    await expect(box).toHaveValue("");
    await expect(box).toHaveAttribute("placeholder", query || "Search");
  }
}

export async function submitHeaderSearch(page: Page, text: string): Promise<void> {
  const box = headerSearch(page);
  await box.fill(text);
  await box.press("Enter");
}

// --------------------------------------------------------------------------------------------
// Facet panel

export function facetPanel(page: Page): Locator {
  return page.locator("aside.facet-panel");
}

export function facetGroup(page: Page, label: string): Locator {
  return facetPanel(page)
    .locator("details.facet")
    .filter({ has: page.locator("summary h3").getByText(label, { exact: true }) });
}

export interface ShownFacetValue {
  value: string;
  count: number;
  selected: "include" | "exclude" | null;
}

/** The values a facet group lists right now, in order, as one snapshot. */
export async function facetValues(page: Page, label: string): Promise<ShownFacetValue[]> {
  return facetGroup(page, label)
    .locator("ul.facet-values > li")
    .evaluateAll((items) =>
      items.map((li) => ({
        value: li.querySelector(".facet-name")?.textContent ?? "",
        count: Number(li.querySelector(".count")?.textContent ?? "NaN"),
        selected: li.classList.contains("is-include") ? "include" : li.classList.contains("is-exclude") ? "exclude" : null,
      })) as { value: string; count: number; selected: "include" | "exclude" | null }[],
    );
}

export function includeLink(page: Page, label: string, value: string): Locator {
  return facetGroup(page, label).getByRole("link", { name: `Include ${label}: ${value}`, exact: true });
}

export function excludeLink(page: Page, label: string, value: string): Locator {
  return facetGroup(page, label).getByRole("link", { name: `Exclude ${label}: ${value}`, exact: true });
}

/** The active filters' chips, right above the results. */
export function selectedFilters(page: Page): Locator {
  return page.locator("section.results section.selected-filters");
}

/** Facet order (spec §4): included values first, then count descending, then alphabetical. */
export function expectFacetOrder(values: ShownFacetValue[]): void {
  for (let i = 1; i < values.length; i++) {
    const a = values[i - 1]!;
    const b = values[i]!;
    const ai = a.selected === "include" ? 1 : 0;
    const bi = b.selected === "include" ? 1 : 0;
    const where = `${JSON.stringify(a)} before ${JSON.stringify(b)}`;
    if (ai !== bi) {
      expect(ai, `included values come first: ${where}`).toBeGreaterThan(bi);
      continue;
    }
    if (a.count !== b.count) {
      expect(a.count, `count descending: ${where}`).toBeGreaterThan(b.count);
      continue;
    }
    expect(a.value.localeCompare(b.value, "en", { sensitivity: "base" }), `alphabetical on equal counts: ${where}`).toBeLessThanOrEqual(0);
  }
}

// --------------------------------------------------------------------------------------------
// Results table

export function resultsTable(page: Page): Locator {
  return page.locator("table.results-table");
}

export function resultRows(page: Page): Locator {
  return resultsTable(page).locator("tbody > tr");
}

/** The texts of one column (by its header label) of every visible row. */
export async function columnTexts(page: Page, label: string): Promise<string[]> {
  return resultsTable(page).evaluate((table, wanted) => {
    const headers = [...table.querySelectorAll("thead th")].map((th) => (th.querySelector("a")?.firstChild?.textContent ?? th.textContent ?? "").trim());
    const index = headers.indexOf(wanted);
    if (index < 0) throw new Error(`no column ${wanted} in ${headers.join(", ")}`);
    return [...table.querySelectorAll("tbody > tr")].map((tr) => {
      const cell = tr.children[index] as HTMLElement | undefined;
      const clone = cell?.cloneNode(true) as HTMLElement | undefined;
      clone?.querySelectorAll(".badge-inactive, .badge-low, .visually-hidden").forEach((n) => n.remove());
      return (clone?.textContent ?? "").trim();
    });
  }, label);
}

/** The column header cell with that label. */
export function columnHeader(page: Page, label: string): Locator {
  return resultsTable(page).locator("thead th").filter({ has: page.getByRole("link", { name: label, exact: true }) });
}

export const NULL_TEXT = "N/A";

/** Case-insensitive order with blanks (shown as N/A) after every value, in both directions. */
export function expectSortedColumn(values: string[], direction: "asc" | "desc", numeric = false): void {
  const firstNull = values.indexOf(NULL_TEXT);
  if (firstNull >= 0) {
    expect(values.slice(firstNull).every((v) => v === NULL_TEXT), `blank values come last: ${values.join(" | ")}`).toBe(true);
  }
  const real = firstNull >= 0 ? values.slice(0, firstNull) : values;
  for (let i = 1; i < real.length; i++) {
    const a = real[i - 1]!;
    const b = real[i]!;
    const cmp = numeric ? Number(a) - Number(b) : a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0;
    const ok = direction === "asc" ? cmp <= 0 : cmp >= 0;
    expect(ok, `${direction}: "${a}" before "${b}" in ${real.join(" | ")}`).toBe(true);
  }
}

// --------------------------------------------------------------------------------------------
// Backend API, to find test data instead of hard-coding sample values

/** Playwright's request context as the probes' GET (tests/catalogue-probes.ts). */
function viaRequest(request: APIRequestContext): GetText {
  return async (path) => {
    const response = await request.get(path);
    return { status: response.status(), text: () => response.text() };
  };
}

export function apiSearch(request: APIRequestContext, params: ApiSearchParams = {}): Promise<ApiSearch> {
  return probes.apiSearch(viaRequest(request), params);
}

export function apiFacet(result: ApiSearch, key: FacetKey): ApiFacet["values"] {
  const facet = result.facets.find((f) => f.field === key || f.field.endsWith(`_${key}_s`) || f.field === `${key}_s`);
  if (!facet) throw new Error(`facet ${key} missing from /api/search: ${result.facets.map((f) => f.field).join(", ")}`);
  return facet.values;
}

// --------------------------------------------------------------------------------------------
// Item, BOM and Where Used pages, and downloads

/**
 * With JavaScript, waits until React has taken over the page (hydration sets its fiber on the
 * elements it adopts); for pages without the search page's filters. Without JavaScript there is
 * nothing to wait for.
 */
export async function waitForReact(page: Page, testInfo: TestInfo): Promise<void> {
  if (!isJs(testInfo)) return;
  await page.waitForFunction(() => {
    const element = document.querySelector("main > *");
    return element !== null && Object.keys(element).some((key) => key.startsWith("__reactFiber"));
  });
}

/** The label/value pairs of the item detail page's specification list, in order. */
export async function specificationRows(page: Page): Promise<[string, string][]> {
  return page.locator("dl.spec-list").evaluate((dl) =>
    [...dl.querySelectorAll("dt")].map((dt) => {
      let dd = dt.nextElementSibling;
      while (dd && dd.tagName !== "DD") dd = dd.nextElementSibling;
      return [(dt.textContent ?? "").trim(), (dd?.textContent ?? "").trim()] as [string, string];
    }),
  );
}

/** The breadcrumb trail's labels, in order. */
export function breadcrumbs(page: Page): Locator {
  return page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("listitem");
}

/** A section (Asset BOM, PM BOM, Other BOM Items) of the BOM and Where Used pages. */
export function bomSection(page: Page, title: string): Locator {
  return page.getByRole("region", { name: title, exact: true });
}

/** The texts of one column (by its header label) of a section's table. */
export async function bomColumnTexts(section: Locator, label: string): Promise<string[]> {
  return section.locator("table").evaluate((table, wanted) => {
    const headers = [...table.querySelectorAll("thead th")].map((th) => (th.querySelector("a")?.firstChild?.textContent ?? th.textContent ?? "").trim());
    const index = headers.indexOf(wanted);
    if (index < 0) throw new Error(`no column ${wanted} in ${headers.join(", ")}`);
    return [...table.querySelectorAll("tbody > tr")].map((tr) => (tr.children[index]?.textContent ?? "").trim());
  }, label);
}

/** An item's BOM records by type (its BOM export). */
export function bomCounts(request: APIRequestContext, item: string): Promise<BomCounts> {
  return probes.bomCounts(viaRequest(request), item);
}

/** The lines of the BOM a head heads (its lines export). */
export function headLines(request: APIRequestContext, head: string): Promise<HeadLineRow[]> {
  return probes.headLines(viaRequest(request), head);
}

export function findBomItem(request: APIRequestContext, wanted: (uses: ComponentUses) => boolean, what: string, options: ProbeOptions = {}) {
  return probes.findBomItem(viaRequest(request), wanted, what, options);
}

export function findBomHead(request: APIRequestContext, type: "asset" | "pm" | "other", wanted: (lines: HeadLineRow[]) => boolean, what: string, options: ProbeOptions = {}) {
  return probes.findBomHead(viaRequest(request), type, wanted, what, options);
}

/**
 * The total a BOM or Where Used section shows: the "of N" of its range, or 0 when it says it has
 * no records.
 */
export async function sectionTotal(page: Page, title: string): Promise<number> {
  const section = bomSection(page, title);
  await expect(section.getByRole("heading", { name: title, exact: true })).toBeVisible();
  if ((await section.locator(".range").count()) === 0) {
    await expect(section.getByText(/^No /), `${title} has no range, so it says it is empty`).toBeVisible();
    return 0;
  }
  const range = (await section.locator(".range").textContent()) ?? "";
  const match = / of (\d+)$/.exec(range.trim());
  if (!match) throw new Error(`unexpected range in ${title}: ${range}`);
  return Number(match[1]);
}

/**
 * The record counts an item's BOM page shows (`/bom/{item}`, or the single-type page it redirects
 * to), read from the page and not from the export, so they can check what the export holds.
 */
export async function bomPageTotals(page: Page, item: string): Promise<BomCounts> {
  const response = await page.goto(`/bom/${encodeURIComponent(item)}`);
  expect(response?.status(), `BOM page of ${item}`).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(item);
  const total = async (title: string) => ((await bomSection(page, title).count()) === 0 ? 0 : sectionTotal(page, title));
  return { asset: await total("Asset BOM"), pm: await total("PM BOM"), other: await total("Other BOM Items") };
}

/**
 * Opens `url` as another site's link does (the browser sends `Sec-Fetch-Site: cross-site`): from a
 * page of another site, answered here, and returns the response to the click.
 */
export async function openFromAnotherSite(page: Page, url: string): Promise<Response | null> {
  const elsewhere = "http://elsewhere.example/";
  await page.route(elsewhere, (route) => route.fulfill({ contentType: "text/html", body: `<a href="${url}">Follow</a>` }));
  await page.goto(elsewhere);
  const response = page.waitForResponse((r) => r.url() === url && r.request().isNavigationRequest());
  await page.getByRole("link", { name: "Follow" }).click();
  await page.waitForURL(url);
  return response;
}

/**
 * The text of the first element with `className` as the browser draws it, generated content
 * (`::after`, CSS counters) included: read from the layout tree (DOMSnapshot), not the DOM.
 */
export async function renderedText(page: Page, className: string): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { documents, strings } = await cdp.send("DOMSnapshot.captureSnapshot", { computedStyles: [] });
    const { nodes, layout } = documents[0]!;
    const parents = nodes.parentIndex ?? [];
    const root = (nodes.attributes ?? []).findIndex((attrs) => {
      for (let i = 0; i + 1 < attrs.length; i += 2) {
        if (strings[attrs[i]!] === "class" && strings[attrs[i + 1]!]!.split(/\s+/).includes(className)) return true;
      }
      return false;
    });
    if (root < 0) return "";
    const inside = (node: number) => {
      for (let n = node; n >= 0; n = parents[n] ?? -1) if (n === root) return true;
      return false;
    };
    const text = layout.nodeIndex.map((node, i) => (inside(node) && layout.text[i]! >= 0 ? strings[layout.text[i]!] : "")).join("");
    return text.replace(/\s+/g, " ").trim();
  } finally {
    await cdp.detach();
  }
}
