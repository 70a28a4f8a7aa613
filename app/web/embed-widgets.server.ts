/**
 * `/embed/widgets.js`: the embeddable search widgets as standard custom elements, in one small
 * script with no dependencies, for any page of an allowed origin (EMBED_ORIGINS):
 *
 *   <crib-search-box endpoint="https://portal" theme="light">  a search box: suggestions from 3
 *                    characters, 300 ms after the last key
 *   <crib-facets endpoint="…">                                  the facets of the search, ≤ 10 values each
 *   <crib-results endpoint="…" view="grid|list">                20 results a page, sort, paging
 *
 * Attributes: `endpoint` (the portal's origin; default the script's own), `collection` (sent
 * along to the API), `theme` (light or dark). The widgets of one page share one search. They call
 * the portal's `/api` (the portal holds Fusion's key: no key ever reaches a browser), with the
 * browser's cookies, so with sign-in on an answer of 401 shows a "Sign in to search" link. Engine
 * text is set as text, never as markup. The widgets draw in their shadow roots; without JavaScript
 * the elements show their own content, which the embedding page writes as a plain form to the
 * portal's results page.
 *
 * Kept as plain modern JavaScript in a string: it is served as it is, with no build step of its own.
 */
export const WIDGETS_JS = String.raw`(function () {
  "use strict";
  if (!window.customElements || customElements.get("crib-search-box")) return;
  var script = document.currentScript;
  var scriptOrigin = script && script.src ? new URL(script.src, location.href).origin : location.origin;
  var MIN_CHARS = 3, DEBOUNCE_MS = 300, ROWS = 20, FACET_VALUES = 10;
  var SORTS = [["relevance", "Relevance"], ["org_code asc", "Org Code A-Z"], ["org_code desc", "Org Code Z-A"], ["item_type asc", "Item Type A-Z"], ["item_type desc", "Item Type Z-A"]];
  var MARKS = /[\u0001\u0002]/g;

  function h(tag, attrs, children) {
    var el = document.createElement(tag);
    for (var k in attrs || {}) {
      if (attrs[k] === null || attrs[k] === undefined || attrs[k] === false) continue;
      if (k.slice(0, 2) === "on") el.addEventListener(k.slice(2), attrs[k]);
      else el.setAttribute(k, attrs[k] === true ? "" : String(attrs[k]));
    }
    (children || []).forEach(function (c) { if (c !== null && c !== undefined) el.append(c instanceof Node ? c : String(c)); });
    return el;
  }
  function text(v) { return (Array.isArray(v) ? v.join(", ") : v === null || v === undefined ? "" : String(v)).replace(MARKS, ""); }

  // Links take the widget's own colours, not the host page's: AA contrast on either background.
  var STYLE = ".crib-w{font:inherit;color:#1b1f24;--crib-bg:#fff;--crib-line:#c9d1d9;--crib-link:#0b5cad}.crib-w.crib-dark{color:#e6edf3;--crib-bg:#161b22;--crib-line:#30363d;--crib-link:#79c0ff}" +
    ".crib-w a{color:var(--crib-link)}" +
    ".crib-w{background:var(--crib-bg)}.crib-w ul{list-style:none;margin:0;padding:0}.crib-w .crib-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr));gap:.5rem}" +
    ".crib-w .crib-card{border:1px solid var(--crib-line);border-radius:4px;padding:.5rem}.crib-w .crib-list .crib-card{border-width:0 0 1px}" +
    ".crib-w .crib-suggest li button{width:100%;text-align:left}.crib-w .crib-pager{display:flex;gap:.5rem;align-items:center;margin-top:.5rem}";

  /** The one search the widgets of an endpoint share. */
  var searches = {};
  function searchOf(endpoint) {
    if (searches[endpoint]) return searches[endpoint];
    var s = { q: "", filters: {}, sort: "relevance", page: 1, listeners: [], last: null, seq: 0 };
    s.listen = function (fn) { s.listeners.push(fn); if (s.last) fn(s.last); };
    s.emit = function (state) { s.last = state; s.listeners.forEach(function (fn) { fn(state); }); };
    s.run = function () {
      var seq = ++s.seq;
      var filters = {};
      Object.keys(s.filters).forEach(function (f) { if (s.filters[f].length) filters[f] = s.filters[f].map(function (v) { return { value: v, type: "include" }; }); });
      var params = new URLSearchParams({ q: s.q, start: String((s.page - 1) * ROWS), rows: String(ROWS), sort: s.sort, filters: JSON.stringify(filters) });
      if (s.collection) params.set("collection", s.collection);
      s.emit({ loading: true, search: s });
      fetch(endpoint + "/api/search?" + params, { credentials: "include", headers: { Accept: "application/json" } }).then(function (r) {
        if (r.status === 401) return { signIn: true };
        return r.json().then(function (body) { return r.ok ? { data: body.data } : { error: (body.error && body.error.message) || "Search failed" }; });
      }).catch(function () { return { error: "The search is not available from this page." }; }).then(function (result) {
        if (seq !== s.seq) return;
        result.search = s;
        s.emit(result);
      });
    };
    s.set = function (change) { for (var k in change) s[k] = change[k]; if (!("page" in change)) s.page = 1; s.run(); };
    return (searches[endpoint] = s);
  }

  /** A type-ahead pick, sent to the portal when this page is the portal's (posts stay same-site). */
  function sendPick(endpoint, query, suggestion, position) {
    if (endpoint !== location.origin || !navigator.sendBeacon) return;
    var id = (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random().toString(36).slice(2)).replace(/[^A-Za-z0-9_-]/g, "");
    navigator.sendBeacon(endpoint + "/api/signals", JSON.stringify({ source: "crib-widgets", version: "1",
      signals: [{ id: id, timestamp: new Date().toISOString(), type: "typeahead", data: { query: query, suggestion: suggestion, position: position } }] }));
  }

  class Base extends HTMLElement {}
  Base.prototype.setup = function () {
    if (!this.shadowRoot) {
      // The widget draws in its shadow root: the element's own content (the form for pages
      // without JavaScript) stays as the page wrote it, and the page's styles stay out.
      this.attachShadow({ mode: "open" }).append(h("style", {}, [STYLE]), (this.box = h("div", {})));
    }
    this.endpoint = (this.getAttribute("endpoint") || scriptOrigin).replace(/\/+$/, "");
    this.search = searchOf(this.endpoint);
    if (this.getAttribute("collection")) this.search.collection = this.getAttribute("collection");
    this.box.className = "crib-w" + (this.getAttribute("theme") === "dark" ? " crib-dark" : "");
  };
  Base.prototype.signInLink = function () {
    return h("p", { class: "crib-signin" }, [h("a", { href: this.endpoint + "/login?returnTo=" + encodeURIComponent("/crib-search"), target: "_top" }, ["Sign in to search"])]);
  };

  class SearchBox extends Base {}
  SearchBox.prototype.connectedCallback = function () {
    if (this.ready) return;
    this.ready = true;
    this.setup();
    var self = this, timer = null, asked = 0;
    var input = h("input", { type: "search", name: "q", "aria-label": "Search the catalogue", autocomplete: "off", role: "combobox", "aria-expanded": "false", "aria-autocomplete": "list" });
    var list = h("ul", { class: "crib-suggest", role: "listbox", hidden: true });
    var form = h("form", { role: "search", action: this.endpoint + "/crib-search/search", method: "get", onsubmit: function (e) { e.preventDefault(); close(); self.search.set({ q: input.value.trim() }); } },
      [input, h("button", { type: "submit" }, ["Search"]), list]);
    function close() { list.hidden = true; input.setAttribute("aria-expanded", "false"); list.replaceChildren(); }
    function suggest() {
      var q = input.value.trim(), mine = ++asked;
      if (q.length < MIN_CHARS || self.getAttribute("autosuggest") === "false") return close();
      fetch(self.endpoint + "/api/suggestions?" + new URLSearchParams({ q: q, limit: "5" }), { credentials: "include" })
        .then(function (r) { return r.ok ? r.json() : null; }).catch(function () { return null; }).then(function (body) {
          if (mine !== asked || !body) return;
          var items = (body.data.suggestions || []).map(function (s, i) {
            var label = text(typeof s === "string" ? s : s.text || s.term || s.value);
            return h("li", { role: "option" }, [h("button", { type: "button", onclick: function () { input.value = label; close(); sendPick(self.endpoint, q, label, i); self.search.set({ q: label }); } }, [label])]);
          });
          list.replaceChildren.apply(list, items);
          list.hidden = items.length === 0;
          input.setAttribute("aria-expanded", String(items.length > 0));
        });
    }
    input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(suggest, DEBOUNCE_MS); });
    input.addEventListener("keydown", function (e) { if (e.key === "Escape") close(); });
    var initial = this.querySelector("input[name=q]");
    if (initial) input.value = initial.value;
    this.box.replaceChildren(form);
  };

  class Facets extends Base {}
  Facets.prototype.connectedCallback = function () {
    if (this.ready) return;
    this.ready = true;
    this.setup();
    var self = this;
    this.search.listen(function (state) {
      if (state.signIn) return self.box.replaceChildren();
      if (!state.data) return;
      var s = self.search;
      self.box.replaceChildren.apply(self.box, (state.data.facets || []).filter(function (f) { return f.values.length; }).map(function (facet) {
        var chosen = s.filters[facet.field] || [];
        return h("fieldset", {}, [h("legend", {}, [facet.label || facet.field.replace(/^attribute_/, "").replace(/_[a-z]+$/, "").replace(/_/g, " ")]),
          h("ul", {}, facet.values.slice(0, FACET_VALUES).map(function (v) {
            var on = chosen.indexOf(v.value) >= 0;
            return h("li", {}, [h("label", {}, [h("input", { type: "checkbox", checked: on, onchange: function () {
              var next = {}; for (var k in s.filters) next[k] = s.filters[k].slice();
              next[facet.field] = on ? chosen.filter(function (x) { return x !== v.value; }) : chosen.concat([v.value]);
              s.set({ filters: next });
            } }), " " + text(v.value) + " (" + v.count + ")"])]);
          }))]);
      }));
    });
  };

  class Results extends Base {
    static get observedAttributes() { return ["view", "theme"]; }
  }
  Results.prototype.attributeChangedCallback = function () { if (this.ready) { this.setup(); if (this.search.last) this.draw(this.search.last); } };
  Results.prototype.connectedCallback = function () {
    if (this.ready) return;
    this.ready = true;
    this.setup();
    var self = this;
    this.search.listen(function (state) { self.draw(state); });
    if (!this.search.last) this.search.run();
  };
  Results.prototype.draw = function (state) {
    var self = this, s = this.search;
    if (state.signIn) return this.box.replaceChildren(this.signInLink());
    if (state.error) return this.box.replaceChildren(h("p", { role: "alert" }, [state.error]));
    if (!state.data) return this.setAttribute("aria-busy", "true");
    this.removeAttribute("aria-busy");
    var d = state.data, pages = Math.max(1, Math.ceil(d.numFound / ROWS));
    var sort = h("select", { "aria-label": "Sort by", onchange: function () { s.set({ sort: sort.value }); } },
      SORTS.map(function (o) { return h("option", { value: o[0], selected: s.sort === o[0] }, [o[1]]); }));
    var view = this.getAttribute("view") === "list" ? "list" : "grid";
    var items = d.docs.map(function (doc) {
      var item = text(doc.item_number_s || doc.id);
      var title = text(doc.title || doc.item_description_t || doc.description_t || item);
      return h("li", { class: "crib-card" }, [h("a", { href: self.endpoint + "/product/" + encodeURIComponent(item), target: "_top" }, [title]),
        h("div", {}, [item]), h("div", {}, [text(doc.category_s)])]);
    });
    var shown = d.numFound ? (d.start + 1) + "-" + (d.start + d.docs.length) + " of " + d.numFound : "No results found";
    this.box.replaceChildren(
      h("div", { class: "crib-bar" }, [h("span", { role: "status" }, [shown]), " ", sort]),
      h("ul", { class: view === "list" ? "crib-list" : "crib-grid" }, items),
      h("div", { class: "crib-pager" }, [
        h("button", { type: "button", disabled: s.page <= 1, onclick: function () { s.set({ page: s.page - 1 }); } }, ["Previous"]),
        h("span", {}, ["Page " + s.page + " of " + pages]),
        h("button", { type: "button", disabled: s.page >= pages, onclick: function () { s.set({ page: s.page + 1 }); } }, ["Next"])]));
  };

  customElements.define("crib-search-box", SearchBox);
  customElements.define("crib-facets", Facets);
  customElements.define("crib-results", Results);
})();
`;
