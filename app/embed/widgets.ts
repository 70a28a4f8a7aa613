/**
 * The embeddable search widgets (`/embed/widgets.js`) as standard custom elements, for any page of
 * an allowed origin (EMBED_ORIGINS):
 *
 *   <crib-search-box endpoint="https://portal" theme="light">  a search box with suggestions
 *   <crib-facets endpoint="…">                                  the facets of the search
 *   <crib-results endpoint="…" view="grid|list">                a page of results, sort, paging
 *
 * Attributes: `endpoint` (the portal's origin; default the script's own), `collection` (sent
 * along to the API), `theme` (light or dark). The widgets of one page share one search. They call
 * the portal's `/api` (the portal holds Fusion's key: no key ever reaches a browser), with the
 * browser's cookies, so with sign-in on an answer of 401 shows a "Sign in to search" link. Engine
 * text is set as text, never as markup. The widgets draw in their shadow roots; without JavaScript
 * the elements show their own content, which the embedding page writes as a plain form to the
 * portal's results page.
 *
 * Browser code whose text the server sends (docs/decisions/034): the script is every function
 * exported here, then `defineWidgets(settings)` with the portal's settings as JSON
 * (app/web/embed-widgets.server.ts). So this module holds exported functions and types only and
 * imports types only (the lint holds it to that): a value from outside a function would not travel
 * with its text. It is not named `.client.ts`, since Remix empties those modules on the server.
 */
import type { Doc, FacetResult } from "~/search/engine";

/** What the portal tells the script: its constants, read from the modules that own them. */
export interface WidgetSettings {
  /** Results a page. */
  rows: number;
  /** Values a facet widget shows at most. */
  facetValues: number;
  /** The type-ahead: characters before it asks, its pause after the last key, suggestions asked for. */
  minChars: number;
  debounceMs: number;
  suggestions: number;
  /** The Sort By menu, relevance first. */
  sorts: readonly { value: string; label: string }[];
  /** The highlight markers, which a widget never shows. */
  marks: string;
  /** Where a result's item number, title (the first that is not blank) and category are. */
  fields: { itemNumber: string; title: readonly string[]; category: string };
  /** The portal's pages (its results page, sign-in coming back to the search, an item's page without the item) and the API it calls. */
  paths: { search: string; signIn: string; product: string; api: { search: string; suggestions: string; signals: string } };
}

/** What `/api/search` answers in `data`. */
export interface SearchData {
  docs: Doc[];
  numFound: number;
  start: number;
  facets?: (FacetResult & { label?: string })[];
}

/** A state of the shared search, as the widgets draw it. */
export interface SearchAnswer {
  loading?: true;
  signIn?: true;
  error?: string;
  data?: SearchData;
}

/** The one search the widgets of an endpoint share. */
export interface SharedSearch {
  q: string;
  filters: Record<string, string[]>;
  sort: string;
  page: number;
  collection?: string;
  last: SearchAnswer | null;
  listen(draw: (answer: SearchAnswer) => void): void;
  run(): void;
  /** Changes the search and runs it; back to the first page unless the change is the page. */
  set(change: Partial<Pick<SharedSearch, "q" | "filters" | "sort" | "page">>): void;
}

/** What the widgets of one page share: the settings, the portal's default origin and one search per endpoint. */
export interface WidgetKit {
  settings: WidgetSettings;
  /** The origin the script came from: the endpoint of a widget that names none. */
  origin: string;
  /** The script's nonce, given to the widgets' `<style>` so that a page whose CSP allows nonced styles only (the portal's /embed) applies it. */
  nonce: string;
  searches: Record<string, SharedSearch>;
}

/** A widget element, once set up: its drawing box, its endpoint and its search. */
export interface WidgetElement extends HTMLElement {
  box: HTMLDivElement;
  endpoint: string;
  search: SharedSearch;
}

type Attributes = Record<string, unknown>;
type Child = Node | string | number | null | undefined;

/** An element with attributes (`on…` are listeners; true is an empty attribute; false, null and undefined none) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attributes, children?: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.slice(0, 2) === "on") el.addEventListener(name.slice(2), value as EventListener);
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children ?? []) if (child !== null && child !== undefined) el.append(child instanceof Node ? child : String(child));
  return el;
}

/** A value as text: lists joined, nothing as empty, the highlight markers removed. */
export function plainText(value: unknown, marks: string): string {
  const text = Array.isArray(value) ? value.join(", ") : value === null || value === undefined ? "" : String(value);
  return text.replace(new RegExp(`[${marks}]`, "g"), "");
}

/** The widgets' look. Links take the widget's own colours, not the host page's: AA contrast on either background. */
export function widgetStyle(): string {
  return (
    ".crib-w{font:inherit;color:#1b1f24;--crib-bg:#fff;--crib-line:#c9d1d9;--crib-link:#0b5cad}.crib-w.crib-dark{color:#e6edf3;--crib-bg:#161b22;--crib-line:#30363d;--crib-link:#79c0ff}" +
    ".crib-w a{color:var(--crib-link)}" +
    ".crib-w{background:var(--crib-bg)}.crib-w ul{list-style:none;margin:0;padding:0}.crib-w .crib-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr));gap:.5rem}" +
    ".crib-w .crib-card{border:1px solid var(--crib-line);border-radius:4px;padding:.5rem}.crib-w .crib-list .crib-card{border-width:0 0 1px}" +
    ".crib-w .crib-suggest li button{width:100%;text-align:left}.crib-w .crib-pager{display:flex;gap:.5rem;align-items:center;margin-top:.5rem}"
  );
}

/** One page of results from the portal's API, or why there is none. */
export async function fetchResults(url: string): Promise<SearchAnswer> {
  try {
    const response = await fetch(url, { credentials: "include", headers: { Accept: "application/json" } });
    if (response.status === 401) return { signIn: true };
    const body = await response.json();
    return response.ok ? { data: body.data } : { error: body.error?.message || "Search failed" };
  } catch {
    return { error: "The search is not available from this page." };
  }
}

/** The endpoint's shared search, made on first use; only the latest run's answer is drawn. */
export function searchOf(kit: WidgetKit, endpoint: string): SharedSearch {
  const known = kit.searches[endpoint];
  if (known) return known;
  const listeners: ((answer: SearchAnswer) => void)[] = [];
  let seq = 0;
  const emit = (answer: SearchAnswer) => {
    search.last = answer;
    for (const draw of listeners) draw(answer);
  };
  const search: SharedSearch = {
    q: "",
    filters: {},
    sort: "relevance",
    page: 1,
    last: null,
    listen(draw) {
      listeners.push(draw);
      if (search.last) draw(search.last);
    },
    run() {
      const mine = ++seq;
      const rows = kit.settings.rows;
      const filters: Record<string, { value: string; type: "include" }[]> = {};
      for (const [field, values] of Object.entries(search.filters)) if (values.length) filters[field] = values.map((value) => ({ value, type: "include" }));
      const params = new URLSearchParams({ q: search.q, start: String((search.page - 1) * rows), rows: String(rows), sort: search.sort, filters: JSON.stringify(filters) });
      if (search.collection) params.set("collection", search.collection);
      emit({ loading: true });
      void fetchResults(`${endpoint}${kit.settings.paths.api.search}?${params}`).then((answer) => {
        if (mine === seq) emit(answer);
      });
    },
    set(change) {
      Object.assign(search, change);
      if (!("page" in change)) search.page = 1;
      search.run();
    },
  };
  return (kit.searches[endpoint] = search);
}

/** A type-ahead pick, sent to the portal when this page is the portal's (posts stay same-site). */
export function sendPick(endpoint: string, path: string, query: string, suggestion: string, position: number): void {
  if (endpoint !== location.origin || !navigator.sendBeacon) return;
  const id = (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random().toString(36).slice(2)).replace(/[^A-Za-z0-9_-]/g, "");
  navigator.sendBeacon(
    endpoint + path,
    JSON.stringify({
      source: "crib-widgets",
      version: "1",
      signals: [{ id, timestamp: new Date().toISOString(), type: "typeahead", data: { query, suggestion, position } }],
    }),
  );
}

/** Sets a widget up on first use and again when its attributes change: its shadow root, endpoint, search and theme. */
export function setUp(el: WidgetElement, kit: WidgetKit): void {
  if (!el.shadowRoot) {
    // The widget draws in its shadow root: the element's own content (the form for pages
    // without JavaScript) stays as the page wrote it, and the page's styles stay out.
    el.box = h("div", {});
    el.attachShadow({ mode: "open" }).append(h("style", { nonce: kit.nonce || null }, [widgetStyle()]), el.box);
  }
  el.endpoint = (el.getAttribute("endpoint") || kit.origin).replace(/\/+$/, "");
  el.search = searchOf(kit, el.endpoint);
  const collection = el.getAttribute("collection");
  if (collection) el.search.collection = collection;
  el.box.className = "crib-w" + (el.getAttribute("theme") === "dark" ? " crib-dark" : "");
}

/** The suggestions for what is typed, each a button that searches for it. */
export async function suggestionsFor(el: WidgetElement, kit: WidgetKit, q: string, pick: (label: string, position: number) => void): Promise<HTMLLIElement[] | null> {
  const params = new URLSearchParams({ q, limit: String(kit.settings.suggestions) });
  const body = await fetch(`${el.endpoint}${kit.settings.paths.api.suggestions}?${params}`, { credentials: "include" })
    .then((response) => (response.ok ? response.json() : null))
    .catch(() => null);
  if (!body) return null;
  const suggestions: unknown[] = body.data.suggestions || [];
  return suggestions.map((s, i) => {
    const suggestion = s as { text?: string; term?: string; value?: string };
    const label = plainText(typeof s === "string" ? s : suggestion.text || suggestion.term || suggestion.value, kit.settings.marks);
    return h("li", { role: "option" }, [h("button", { type: "button", onclick: () => pick(label, i) }, [label])]);
  });
}

/** `<crib-search-box>`: a search form whose suggestions come after a few characters and a pause. */
export function drawSearchBox(el: WidgetElement, kit: WidgetKit): void {
  const { minChars, debounceMs } = kit.settings;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;
  const input = h("input", { type: "search", name: "q", "aria-label": "Search the catalogue", autocomplete: "off", role: "combobox", "aria-expanded": "false", "aria-autocomplete": "list" });
  const list = h("ul", { class: "crib-suggest", role: "listbox", hidden: true });
  const close = () => {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
    list.replaceChildren();
  };
  const onsubmit = (event: Event) => {
    event.preventDefault();
    close();
    el.search.set({ q: input.value.trim() });
  };
  const form = h("form", { role: "search", action: el.endpoint + kit.settings.paths.search, method: "get", onsubmit }, [input, h("button", { type: "submit" }, ["Search"]), list]);
  const suggest = () => {
    const q = input.value.trim();
    const mine = ++asked;
    if (q.length < minChars || el.getAttribute("autosuggest") === "false") return close();
    const pick = (label: string, position: number) => {
      input.value = label;
      close();
      sendPick(el.endpoint, kit.settings.paths.api.signals, q, label, position);
      el.search.set({ q: label });
    };
    void suggestionsFor(el, kit, q, pick).then((items) => {
      if (mine !== asked || !items) return;
      list.replaceChildren(...items);
      list.hidden = items.length === 0;
      input.setAttribute("aria-expanded", String(items.length > 0));
    });
  };
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(suggest, debounceMs);
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close();
  });
  const initial = el.querySelector<HTMLInputElement>("input[name=q]");
  if (initial) input.value = initial.value;
  el.box.replaceChildren(form);
}

/** `<crib-facets>`: each facet of the answer with values, its first few as checkboxes that filter the search. */
export function drawFacets(el: WidgetElement, kit: WidgetKit, answer: SearchAnswer): void {
  if (answer.signIn) return el.box.replaceChildren();
  if (!answer.data) return;
  const search = el.search;
  const facets = (answer.data.facets || []).filter((facet) => facet.values.length);
  el.box.replaceChildren(
    ...facets.map((facet) => {
      const chosen = search.filters[facet.field] || [];
      const legend = facet.label || facet.field.replace(/^attribute_/, "").replace(/_[a-z]+$/, "").replace(/_/g, " ");
      const values = facet.values.slice(0, kit.settings.facetValues).map((v) => {
        const on = chosen.includes(v.value);
        const onchange = () => {
          const next: Record<string, string[]> = {};
          for (const [field, values] of Object.entries(search.filters)) next[field] = values.slice();
          next[facet.field] = on ? chosen.filter((x) => x !== v.value) : chosen.concat([v.value]);
          search.set({ filters: next });
        };
        return h("li", {}, [h("label", {}, [h("input", { type: "checkbox", checked: on, onchange }), ` ${plainText(v.value, kit.settings.marks)} (${v.count})`])]);
      });
      return h("fieldset", {}, [h("legend", {}, [legend]), h("ul", {}, values)]);
    }),
  );
}

/** A result as a card: its title linking to its item page, its item number and category. */
export function resultCard(el: WidgetElement, kit: WidgetKit, doc: Doc): HTMLLIElement {
  const { fields, marks, paths } = kit.settings;
  const item = plainText(doc[fields.itemNumber] || doc.id, marks);
  const title = plainText(fields.title.map((name) => doc[name]).find((value) => value) || item, marks);
  return h("li", { class: "crib-card" }, [
    h("a", { href: el.endpoint + paths.product + encodeURIComponent(item), target: "_top" }, [title]),
    h("div", {}, [item]),
    h("div", {}, [plainText(doc[fields.category], marks)]),
  ]);
}

/** `<crib-results>`: the range, the sort menu, the results as a grid or a list, and the pager. */
export function drawResults(el: WidgetElement, kit: WidgetKit, answer: SearchAnswer): void {
  const search = el.search;
  if (answer.signIn) {
    const link = h("a", { href: el.endpoint + kit.settings.paths.signIn, target: "_top" }, ["Sign in to search"]);
    return el.box.replaceChildren(h("p", { class: "crib-signin" }, [link]));
  }
  if (answer.error) return el.box.replaceChildren(h("p", { role: "alert" }, [answer.error]));
  if (!answer.data) return el.setAttribute("aria-busy", "true");
  el.removeAttribute("aria-busy");
  const data = answer.data;
  const pages = Math.max(1, Math.ceil(data.numFound / kit.settings.rows));
  const sort: HTMLSelectElement = h(
    "select",
    { "aria-label": "Sort by", onchange: () => search.set({ sort: sort.value }) },
    kit.settings.sorts.map((o) => h("option", { value: o.value, selected: search.sort === o.value }, [o.label])),
  );
  const view = el.getAttribute("view") === "list" ? "list" : "grid";
  const shown = data.numFound ? `${data.start + 1}-${data.start + data.docs.length} of ${data.numFound}` : "No results found";
  el.box.replaceChildren(
    h("div", { class: "crib-bar" }, [h("span", { role: "status" }, [shown]), " ", sort]),
    h("ul", { class: view === "list" ? "crib-list" : "crib-grid" }, data.docs.map((doc) => resultCard(el, kit, doc))),
    h("div", { class: "crib-pager" }, [
      h("button", { type: "button", disabled: search.page <= 1, onclick: () => search.set({ page: search.page - 1 }) }, ["Previous"]),
      h("span", {}, [`Page ${search.page} of ${pages}`]),
      h("button", { type: "button", disabled: search.page >= pages, onclick: () => search.set({ page: search.page + 1 }) }, ["Next"]),
    ]),
  );
}

/** Defines the three elements, once per page, with the portal's settings. */
export function defineWidgets(settings: WidgetSettings): void {
  if (!window.customElements || customElements.get("crib-search-box")) return;
  const script = document.currentScript as HTMLScriptElement | null;
  const kit: WidgetKit = { settings, origin: script && script.src ? new URL(script.src, location.href).origin : location.origin, nonce: (script && script.nonce) || "", searches: {} };

  /** A widget drawn once, when it is first connected. */
  abstract class Widget extends HTMLElement {
    declare box: HTMLDivElement;
    declare endpoint: string;
    declare search: SharedSearch;
    ready = false;
    connectedCallback() {
      if (this.ready) return;
      this.ready = true;
      setUp(this, kit);
      this.start();
    }
    abstract start(): void;
  }
  class SearchBox extends Widget {
    start() {
      drawSearchBox(this, kit);
    }
  }
  class Facets extends Widget {
    start() {
      this.search.listen((answer) => drawFacets(this, kit, answer));
    }
  }
  class Results extends Widget {
    static get observedAttributes() {
      return ["view", "theme"];
    }
    attributeChangedCallback() {
      if (!this.ready) return;
      setUp(this, kit);
      if (this.search.last) drawResults(this, kit, this.search.last);
    }
    start() {
      this.search.listen((answer) => drawResults(this, kit, answer));
      if (!this.search.last) this.search.run();
    }
  }
  customElements.define("crib-search-box", SearchBox);
  customElements.define("crib-facets", Facets);
  customElements.define("crib-results", Results);
}
