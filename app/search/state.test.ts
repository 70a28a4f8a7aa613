import { MAX_FILTERS } from "~/lib/limits";
import { describe, expect, it } from "vitest";
import type { Filter } from "./engine";
import { DEFAULT_SEARCH_CONFIG, type SearchConfig } from "./search-config";
import {
  addFilter,
  addWithin,
  clearFilters,
  clearWithin,
  EMPTY_STATE,
  filterParamName,
  filterToggleHref,
  goToPage,
  normalizeQuery,
  MAX_FILTER_VALUE_LENGTH,
  MAX_SEARCH_BYTES,
  MAX_START,
  PAGE_SIZES,
  parseSearchParams,
  removeFilter,
  removeWithin,
  resolveSortField,
  searchHref,
  serializeSearchState,
  toggleColumnSort,
  toggleFilter,
  withQuery,
  withRows,
  withSort,
  type SearchState,
} from "./state";

const config = DEFAULT_SEARCH_CONFIG;

const parse = (query: string | URLSearchParams, cfg: SearchConfig = config) =>
  parseSearchParams(typeof query === "string" ? new URLSearchParams(query) : query, cfg);
const serialize = (state: SearchState, cfg: SearchConfig = config) => serializeSearchState(state, cfg).toString();
const state = (change: Partial<SearchState>): SearchState => ({ ...EMPTY_STATE, ...change });

const include = (field: string, value: string): Filter => ({ field, value, type: "include" });
const exclude = (field: string, value: string): Filter => ({ field, value, type: "exclude" });

/** mulberry32: a small seeded PRNG, so that a failing case can be replayed. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T,>(list: readonly T[]): T => {
    const item = list[int(list.length)];
    if (item === undefined) throw new Error("empty list");
    return item;
  };
  return { next, int, pick };
}
type Rng = ReturnType<typeof prng>;

// URL-significant characters, quotes, unicode, emoji, whitespace and control characters.
const PIECES = [
  "a", "b", "Z", "7", "pump", "WR55X10942", " ", "  ", ":", "::", "&", "=", "+", "%", "%20", "%zz", "#", "?", "/",
  "\\", '"', "'", "*", "*:*", "(", ")", "[", "]", "{!term f=x}", "é", "Ünïcödé", "漢字", "😀", "👩‍🔧", "\t", "\n",
  "\u0001", "\u007f", "\u00a0", "AND", "-",
];

function randomText(rng: Rng, maxPieces = 6): string {
  let text = "";
  const n = 1 + rng.int(maxPieces);
  for (let i = 0; i < n; i++) text += rng.pick(PIECES);
  return text;
}

function randomValidState(rng: Rng): SearchState {
  const roll = rng.next();
  // Some queries run past 500 characters, so valid states include cut ones.
  const longQuery = roll >= 0.2 && roll < 0.25;
  let s = withQuery(EMPTY_STATE, roll < 0.2 ? "" : longQuery ? randomText(rng).repeat(200) : randomText(rng));
  // A valid search fits in MAX_SEARCH_BYTES: a cut query of encoded text may take it all.
  const filterCount = longQuery ? 0 : rng.int(6);
  for (let i = 0; i < filterCount; i++) {
    const field = rng.pick(config.allFacetFields);
    // Reuse a value sometimes so that re-typing and duplicates are exercised.
    const value = rng.next() < 0.3 ? "same" : randomText(rng);
    s = addFilter(s, { field, value, type: rng.next() < 0.6 ? "include" : "exclude" });
  }
  const withinCount = longQuery ? 0 : rng.int(7);
  for (let i = 0; i < withinCount; i++) s = addWithin(s, randomText(rng, 3));
  if (rng.next() < 0.6) s = withSort(s, { field: rng.pick(config.sortFields), direction: rng.pick(["asc", "desc"] as const) });
  s = withRows(s, rng.pick(PAGE_SIZES));
  const page = rng.pick([1, 1, 2, 3, 17, 1 + rng.int(1_000_000), Number.MAX_SAFE_INTEGER]);
  return goToPage(s, page);
}

const PARAM_NAMES = ["q", "page", "rows", "sort", "f", "nf", "within", "where-used", "junk", "F", "q "];
const FACET_NAMES = ["category", "category_s", "status", "attribute_status_s", "colour", "", " org_code ", "status_t"];

function randomParams(rng: Rng): URLSearchParams {
  const params = new URLSearchParams();
  const n = rng.int(12);
  for (let i = 0; i < n; i++) {
    const name = rng.pick(PARAM_NAMES);
    let value: string;
    switch (name) {
      case "f":
      case "nf":
        value = rng.next() < 0.9 ? `${rng.pick(FACET_NAMES)}:${randomText(rng)}` : randomText(rng);
        break;
      case "page":
      case "rows":
        value = rng.pick(["1", "2", "20", "50", "100", "0", "-1", "1.5", "abc", "007", " 3 ", "1e3", "99999999999999999999"]);
        break;
      case "sort":
        value = rng.pick(["relevance", "org_code asc", "org_code_s DESC", "item_description_t asc", "colour asc", "org_code up", "", "  lead_time   desc "]);
        break;
      default:
        value = rng.next() < 0.1 ? `\0${randomText(rng)}\0\uD800` : randomText(rng, 100);
    }
    params.append(name, value);
  }
  return params;
}

describe("filterToggleHref", () => {
  it("gives the href of toggleFilter for every value of every facet, from the parameters alone", () => {
    const rng = prng(20261123);
    let checked = 0;
    for (let i = 0; i < 300; i++) {
      const s = randomValidState(rng);
      const params = [...serializeSearchState(s, config)];
      for (const field of config.allFacetFields) {
        const name = filterParamName(field, config);
        if (name === null) continue;
        // The values the page would list: the selected ones, and others, some needing cleaning.
        const values = [
          ...s.filters.filter((f) => f.field === field).map((f) => f.value),
          randomText(rng),
          rng.pick(["same", "", "\0", "a\uD800b", " padded "]),
        ];
        for (const value of values) {
          const selected = s.filters.find((f) => f.field === field && f.value === value)?.type ?? null;
          for (const type of ["include", "exclude"] as const) {
            const expected = searchHref(toggleFilter(s, { field, value, type }), config);
            expect(filterToggleHref(params, name, value, selected, type), `case ${i}: ${field} ${type} ${JSON.stringify(value)} on ${serialize(s)}`).toBe(expected);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(5000);
  });
});

describe("URL codec round trip", () => {
  it("parse(serialize(s)) equals s for random valid states", () => {
    const rng = prng(20240611);
    for (let i = 0; i < 400; i++) {
      const s = randomValidState(rng);
      const params = serializeSearchState(s, config);
      expect(parseSearchParams(params, config), `case ${i}: ${params.toString()}`).toEqual(s);
      // Through the wire: the encoded query string, and a whole href including `#` in values.
      expect(parse(params.toString()), `case ${i}`).toEqual(s);
      const url = new URL(searchHref(s, config), "http://crib.test");
      expect(url.pathname).toBe("/crib-search/search");
      expect(parseSearchParams(url.searchParams, config), `case ${i}`).toEqual(s);
    }
  });

  it("serialize(parse(x)) is canonical and idempotent for random input", () => {
    const rng = prng(7);
    const order = ["q", "f", "nf", "within", "sort", "rows", "page"];
    for (let i = 0; i < 400; i++) {
      const input = randomParams(rng);
      const parsed = parseSearchParams(input, config);
      const canonical = serializeSearchState(parsed, config);
      expect(parse(canonical.toString()), `case ${i}: ${input.toString()}`).toEqual(parsed);
      expect(serialize(parse(canonical.toString()))).toBe(canonical.toString());
      const names = [...canonical.keys()];
      const positions = names.map((n) => order.indexOf(n));
      expect(positions.every((p) => p >= 0)).toBe(true);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
      expect(parsed.within.length).toBeLessThanOrEqual(5);
      expect(parsed.q.length).toBeLessThanOrEqual(1000);
    }
  });

  it("keeps values with colons, ampersands, plus signs, percent signs and emoji intact", () => {
    const s = state({
      q: 'a+b & c=d #1 "50%"',
      filters: [include("category_s", "Pumps: drain & fill"), exclude("manufacturer_s", "A+B=C #2 100% 😀")],
      within: ["x:y", "a&b"],
    });
    const text = serialize(s);
    expect(text).toBe(
      "q=a%2Bb+%26+c%3Dd+%231+%2250%25%22&f=category%3APumps%3A+drain+%26+fill" +
        "&nf=manufacturer%3AA%2BB%3DC+%232+100%25+%F0%9F%98%80&within=x%3Ay&within=a%26b",
    );
    expect(parse(text)).toEqual(s);
  });

  it("emits the canonical form: defaults left out, facet and sort keys, fixed order", () => {
    expect(serialize(EMPTY_STATE)).toBe("");
    const s = state({
      page: 3,
      rows: 50,
      sort: { field: "org_code_s", direction: "desc" },
      filters: [include("attribute_status_s", "Active"), exclude("category_s", "Filters")],
      within: ["seal"],
      q: "pump",
    });
    expect(serialize(s)).toBe("q=pump&f=status%3AActive&nf=category%3AFilters&within=seal&sort=org_code+desc&rows=50&page=3");
    expect(searchHref(s, config, "/embed")).toBe(`/embed?${serialize(s)}`);
    expect(searchHref(EMPTY_STATE, config)).toBe("/crib-search/search");
  });

  it("uses the full name where two configured fields share a key", () => {
    const cfg: SearchConfig = {
      ...config,
      allFacetFields: ["status_s", "attribute_status_s"],
      sortFields: ["status_s", "attribute_status_s"],
    };
    const s = state({
      filters: [include("status_s", "a"), include("attribute_status_s", "b")],
      sort: { field: "attribute_status_s", direction: "asc" },
    });
    expect(serialize(s, cfg)).toBe("f=status%3Aa&f=attribute_status_s%3Ab&sort=attribute_status_s+asc");
    expect(parse(serialize(s, cfg), cfg)).toEqual(s);
  });

  it("leaves out filters and sorts on fields the configuration does not know", () => {
    const s = state({ filters: [include("colour_s", "red")], sort: { field: "colour_s", direction: "asc" } });
    expect(serialize(s)).toBe("");
  });

  it("writes a filter or sort named by its key as the field it resolves to", () => {
    const s = state({ filters: [include("category", "Pumps")], sort: { field: "org_code", direction: "asc" } });
    expect(parse(serialize(s))).toEqual(
      state({ filters: [include("category_s", "Pumps")], sort: { field: "org_code_s", direction: "asc" } }),
    );
  });
});

describe("parseSearchParams: lenient with bad values", () => {
  it("parses an empty URL to the empty state", () => {
    expect(parse("")).toEqual(EMPTY_STATE);
  });

  it.each([
    ["page=-1", 1],
    ["page=0", 1],
    ["page=abc", 1],
    ["page=1.5", 1],
    ["page=1e3", 1],
    ["page=", 1],
    ["page=99999999999999999999", 1],
    ["page=007", 7],
    ["page=%2B4", 1],
    ["page=%204%20", 4],
    ["page=12", 12],
  ])("%s → page %d", (query, page) => {
    expect(parse(query).page).toBe(page);
  });

  it.each([
    ["rows=100000", 20],
    ["rows=10", 20],
    ["rows=abc", 20],
    ["rows=-50", 20],
    ["rows=50.0", 20],
    ["rows=50", 50],
    ["rows=100", 100],
    ["rows=20", 20],
  ])("%s → rows %d", (query, rows) => {
    expect(parse(query).rows).toBe(rows);
  });

  it("accepts a sort by field key or full name, in either case of direction", () => {
    expect(parse("sort=org_code+asc").sort).toEqual({ field: "org_code_s", direction: "asc" });
    expect(parse("sort=org_code_s+desc").sort).toEqual({ field: "org_code_s", direction: "desc" });
    expect(parse("sort=status+DESC").sort).toEqual({ field: "attribute_status_s", direction: "desc" });
    expect(parse("sort=%20lead_time%20%20asc%20").sort).toEqual({ field: "attribute_lead_time_i", direction: "asc" });
  });

  it.each([
    "sort=relevance",
    "sort=",
    "sort=colour+asc",
    "sort=org_code+up",
    "sort=org_code",
    "sort=org_code+asc+desc",
    "sort=score+desc",
  ])("%s → relevance", (query) => {
    expect(parse(query).sort).toBeNull();
  });

  it("ignores filters on unknown facets and filters without a value", () => {
    expect(parse("f=colour:red&nf=colour_s:blue&f=status_t:x&f=category&f=category:&f=:x").filters).toEqual([]);
  });

  it("accepts facet keys and full names and keeps everything after the first colon", () => {
    expect(parse("f=category:a:b::c&nf=attribute_status_s:Inactive&f=status:+x+").filters).toEqual([
      include("category_s", "a:b::c"),
      include("attribute_status_s", " x "),
      exclude("attribute_status_s", "Inactive"),
    ]);
  });

  it("drops duplicate filters and lets the later of two contradicting filters win", () => {
    expect(parse("f=category:A&f=category:A&nf=category:B&f=category:B").filters).toEqual([
      include("category_s", "A"),
      include("category_s", "B"),
    ]);
    expect(parse("f=category:A&nf=category:A").filters).toEqual([exclude("category_s", "A")]);
  });

  it("treats *:* and blank queries as all items, trims, and cuts at 500 characters", () => {
    expect(parse("q=*:*").q).toBe("");
    expect(parse("q=%20*:*%20").q).toBe("");
    expect(parse("q=%20%20").q).toBe("");
    expect(parse("q=%20pump%20").q).toBe("pump");
    const long = parse(`q=${"a".repeat(10_000)}`).q;
    expect(long).toBe("a".repeat(500));
    // A cut that ends in a space is trimmed again so the value survives another parse.
    expect(parse(`q=${"a".repeat(499)}%20b`).q).toBe("a".repeat(499));
    expect(normalizeQuery(`${"é".repeat(600)}`)).toBe("é".repeat(500));
    // Text whose characters take many bytes in a URL is cut to MAX_SEARCH_BYTES too, between characters.
    expect(normalizeQuery(`${"😀".repeat(600)}`)).toBe("😀".repeat(MAX_SEARCH_BYTES / 12));
    expect(normalizeQuery(`a${"漢".repeat(600)}`)).toBe(`a${"漢".repeat(Math.floor((MAX_SEARCH_BYTES - 1) / 9))}`);
  });

  it("keeps at most five search-within terms, trimmed, without blanks or duplicates", () => {
    const params = new URLSearchParams();
    for (const term of [" a ", "", "  ", "a", "b", "c", "d", "e", "f"]) params.append("within", term);
    expect(parse(params).within).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("strips NUL and survives control characters and broken encodings", () => {
    const s = parse("q=pu%00mp%01&within=%00se%00al&f=category:%00Pu%00mps&f=cat%00egory:x&rows=%00&page=%FF");
    expect(s.q).toBe("pump\u0001");
    expect(s.within).toEqual(["seal"]);
    expect(s.filters).toEqual([include("category_s", "Pumps"), include("category_s", "x")]);
    expect(parse("q=%E0%A4%A&q=second").q).toBe("\uFFFD%A");
  });

  it("replaces lone surrogates from transitions, which a URL cannot carry", () => {
    let s = withQuery(EMPTY_STATE, "a\uD800b");
    s = addWithin(s, "\uDC00x");
    s = addFilter(s, include("category_s", "y\uD83D"));
    expect(s.q).toBe("a\uFFFDb");
    expect(s.within).toEqual(["\uFFFDx"]);
    expect(s.filters).toEqual([include("category_s", "y\uFFFD")]);
    expect(parse(serialize(s))).toEqual(s);
    expect(withQuery(EMPTY_STATE, "😀").q).toBe("😀");
  });

  it("ignores unknown parameters and where-used", () => {
    expect(parse("where-used=WR55&foo=bar&Q=x")).toEqual(EMPTY_STATE);
  });

  it("reads the first q, page, rows and sort when they are repeated", () => {
    expect(parse("q=a&q=b&page=2&page=3&rows=50&rows=100").q).toBe("a");
    expect(parse("q=a&q=b&page=2&page=3&rows=50&rows=100").page).toBe(2);
    expect(parse("q=a&q=b&page=2&page=3&rows=50&rows=100").rows).toBe(50);
  });

  it("merges repeated and contradicting filters as the reference does, for few and for many", () => {
    // Reference: a later filter on the same value replaces an earlier one of the other type and
    // moves to the end; an identical one is ignored; includes come before excludes.
    const reference = (given: [string, string][]) => {
      let kept: { value: string; type: string }[] = [];
      for (const [name, value] of given) {
        const type = name === "f" ? "include" : "exclude";
        const earlier = kept.find((f) => f.value === value);
        if (earlier?.type === type) continue;
        // At the limit, only a filter already there may change its type.
        if (!earlier && kept.length >= MAX_FILTERS) continue;
        kept = [...kept.filter((f) => f.value !== value), { value, type }];
      }
      return [...kept.filter((f) => f.type === "include"), ...kept.filter((f) => f.type === "exclude")];
    };
    const rng = prng(7);
    for (const size of [1, 2, 5, 15, 16, 17, 30, 60]) {
      for (let round = 0; round < 20; round++) {
        const given: [string, string][] = Array.from({ length: size }, () => [rng.pick(["f", "nf"]), `v${rng.int(Math.max(2, size >> 1))}`]);
        const params = new URLSearchParams(given.map(([name, value]) => [name, `category:${value}`]));
        const filters = parseSearchParams(params, config).filters.map((f) => ({ value: f.value, type: f.type }));
        expect(filters, `${size} filters: ${params}`).toEqual(reference(given));
      }
    }
  });

  it("keeps the first MAX_FILTERS filters of a URL with thousands, in a page that stays small", () => {
    const params = new URLSearchParams();
    for (let i = 0; i < 20_000; i++) params.append(i % 2 ? "f" : "nf", `category:${i % 5000}`);
    const s = parseSearchParams(params, config);
    expect(s.filters).toHaveLength(MAX_FILTERS);
    expect(s.filters.map((f) => f.value)).toEqual(
      expect.arrayContaining(Array.from({ length: MAX_FILTERS }, (_, i) => String(i))),
    );
    expect(serializeSearchState(s, config).getAll("f").length + serializeSearchState(s, config).getAll("nf").length).toBe(MAX_FILTERS);
  });

  it("drops filter values longer than MAX_FILTER_VALUE_LENGTH", () => {
    const long = "x".repeat(MAX_FILTER_VALUE_LENGTH + 1);
    const s = parseSearchParams(new URLSearchParams([["f", `category:${long}`], ["f", `category:${"y".repeat(MAX_FILTER_VALUE_LENGTH)}`]]), config);
    expect(s.filters.map((f) => f.value.length)).toEqual([MAX_FILTER_VALUE_LENGTH]);
  });

  it("never asks for results past MAX_START: a huge page becomes the last page that can be asked", () => {
    for (const rows of [20, 50, 100]) {
      const s = parseSearchParams(new URLSearchParams({ page: "1000000000", rows: String(rows) }), config);
      expect((s.page - 1) * rows).toBeLessThanOrEqual(MAX_START);
      expect(s.page * rows).toBeGreaterThan(MAX_START);
    }
  });
});

describe("resolveSortField", () => {
  it("allows every catalogue field, text fields too (core §3: every column sorts)", () => {
    expect(resolveSortField("item_number", config)).toBe("item_number_s");
    expect(resolveSortField("attribute_list_price_d", config)).toBe("attribute_list_price_d");
    expect(resolveSortField("last_modified", config)).toBe("last_modified_dt");
    expect(resolveSortField("item_description", config)).toBe("item_description_t");
    expect(resolveSortField("org_notes", config)).toBe("attribute_org_notes_t");
    expect(resolveSortField("score", config)).toBeNull();
  });
});

const deepFreeze = (s: SearchState): SearchState =>
  Object.freeze({ ...s, filters: Object.freeze([...s.filters]) as Filter[], within: Object.freeze([...s.within]) as string[] });

describe("transitions", () => {
  const base = deepFreeze(
    state({
      q: "pump",
      page: 4,
      rows: 50,
      sort: { field: "org_code_s", direction: "asc" },
      filters: [include("category_s", "Pumps")],
      within: ["drain"],
    }),
  );

  it("withQuery sets the trimmed query, clears search-within and resets the page", () => {
    expect(withQuery(base, "  valve ")).toEqual({ ...base, q: "valve", within: [], page: 1 });
    expect(withQuery(base, "*:*").q).toBe("");
    expect(withQuery(base, "pump").within).toEqual([]);
  });

  it("toggleFilter adds, removes the same filter, and re-types the other", () => {
    const added = toggleFilter(base, include("manufacturer_s", "GE"));
    expect(added.filters).toEqual([include("category_s", "Pumps"), include("manufacturer_s", "GE")]);
    expect(added.page).toBe(1);
    expect(toggleFilter(added, include("manufacturer_s", "GE")).filters).toEqual([include("category_s", "Pumps")]);
    expect(toggleFilter(base, exclude("category_s", "Pumps")).filters).toEqual([exclude("category_s", "Pumps")]);
    expect(toggleFilter(base, include("category_s", "Pumps")).page).toBe(1);
  });

  it("addFilter ignores identical duplicates and replaces the opposite type", () => {
    expect(addFilter(base, include("category_s", "Pumps")).filters).toEqual([include("category_s", "Pumps")]);
    expect(addFilter(base, exclude("category_s", "Pumps")).filters).toEqual([exclude("category_s", "Pumps")]);
    expect(addFilter(base, include("category_s", "")).filters).toEqual([include("category_s", "Pumps")]);
    expect(addFilter(base, include("category_s", "Valves")).page).toBe(1);
  });

  it("keeps include filters before exclude filters, each in the order added", () => {
    let s = addFilter(EMPTY_STATE, exclude("category_s", "A"));
    s = addFilter(s, include("category_s", "B"));
    s = addFilter(s, exclude("manufacturer_s", "C"));
    s = addFilter(s, include("manufacturer_s", "D"));
    expect(s.filters).toEqual([
      include("category_s", "B"),
      include("manufacturer_s", "D"),
      exclude("category_s", "A"),
      exclude("manufacturer_s", "C"),
    ]);
    expect(parse(serialize(s)).filters).toEqual(s.filters);
  });

  it("removeFilter removes by field and value; clearFilters removes all or one facet's", () => {
    const two = addFilter(base, exclude("manufacturer_s", "GE"));
    expect(removeFilter(two, { field: "manufacturer_s", value: "GE" }).filters).toEqual([include("category_s", "Pumps")]);
    expect(removeFilter(two, include("manufacturer_s", "GE")).filters).toEqual([include("category_s", "Pumps")]);
    expect(removeFilter(base, include("category_s", "Valves")).filters).toEqual(base.filters);
    expect(removeFilter(base, include("category_s", "Pumps")).page).toBe(1);
    expect(clearFilters(two)).toEqual({ ...two, filters: [], page: 1 });
    expect(clearFilters(two, "category_s").filters).toEqual([exclude("manufacturer_s", "GE")]);
  });

  it("withSort sets the sort and resets the page", () => {
    expect(withSort(base, null)).toEqual({ ...base, sort: null, page: 1 });
    expect(withSort(base, { field: "category_s", direction: "desc" }).sort).toEqual({ field: "category_s", direction: "desc" });
  });

  it("toggleColumnSort flips the sorted column and starts other columns ascending", () => {
    const desc = toggleColumnSort(base, "org_code_s");
    expect(desc.sort).toEqual({ field: "org_code_s", direction: "desc" });
    expect(desc.page).toBe(1);
    expect(toggleColumnSort(desc, "org_code_s").sort).toEqual({ field: "org_code_s", direction: "asc" });
    expect(toggleColumnSort(desc, "category_s").sort).toEqual({ field: "category_s", direction: "asc" });
    expect(toggleColumnSort(withSort(base, null), "category_s").sort).toEqual({ field: "category_s", direction: "asc" });
  });

  it("withRows accepts 20, 50 and 100 and resets the page", () => {
    expect(withRows(base, 100)).toEqual({ ...base, rows: 100, page: 1 });
    expect(withRows(base, 30).rows).toBe(20);
    expect(withRows(base, Number.NaN).rows).toBe(20);
  });

  it("goToPage keeps everything else and turns bad pages into 1", () => {
    expect(goToPage(base, 9)).toEqual({ ...base, page: 9 });
    expect(goToPage(base, 0).page).toBe(1);
    expect(goToPage(base, -3).page).toBe(1);
    expect(goToPage(base, 2.5).page).toBe(1);
    expect(goToPage(base, Number.POSITIVE_INFINITY).page).toBe(1);
  });

  it("addWithin trims and ignores blanks, duplicates and terms past the fifth", () => {
    expect(addWithin(base, "  seal ")).toEqual({ ...base, within: ["drain", "seal"], page: 1 });
    expect(addWithin(base, "   ").within).toEqual(["drain"]);
    expect(addWithin(base, "drain").within).toEqual(["drain"]);
    expect(addWithin(base, "DRAIN").within).toEqual(["drain"]);
    let s: SearchState = base;
    for (const term of ["b", "c", "d", "e", "f"]) s = addWithin(s, term);
    expect(s.within).toEqual(["drain", "b", "c", "d", "e"]);
  });

  it("removeWithin and clearWithin remove terms and reset the page", () => {
    const s = addWithin(base, "seal");
    expect(removeWithin(goToPage(s, 3), " drain ")).toEqual({ ...s, within: ["seal"], page: 1 });
    expect(clearWithin(goToPage(s, 3))).toEqual({ ...s, within: [], page: 1 });
  });

  it("returns new states and leaves the old one untouched", () => {
    const before = JSON.stringify(base);
    const results = [
      withQuery(base, "x"),
      toggleFilter(base, include("category_s", "Pumps")),
      addFilter(base, include("manufacturer_s", "GE")),
      removeFilter(base, include("category_s", "Pumps")),
      clearFilters(base),
      withSort(base, null),
      toggleColumnSort(base, "org_code_s"),
      withRows(base, 20),
      goToPage(base, 2),
      addWithin(base, "x"),
      removeWithin(base, "drain"),
      clearWithin(base),
    ];
    for (const result of results) expect(result).not.toBe(base);
    expect(JSON.stringify(base)).toBe(before);
  });
});
