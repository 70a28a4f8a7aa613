/**
 * A search that is exactly one item's item number or manufacturer part number opens the item (a
 * redirect, so it works without JavaScript); the item page leads back to the list. The loaders are
 * the app's own, on a sample catalogue.
 */
import fs from "node:fs";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { services } from "~/registry.server";
import { sampleItem } from "~/search/engines/embedded/sample-data";
import { readSignals } from "../support/signals";
import { useTemporaryCatalog } from "./setup-catalog";

const { dir } = useTemporaryCatalog(600, { SIGNALS_ENABLED: "true" });

type Loader = (args: LoaderFunctionArgs) => unknown;
let searchLoader: Loader;
let productLoader: Loader;
let apiSearch: Loader;

beforeAll(async () => {
  searchLoader = (await import("~/routes/crib-search.(search)")).loader;
  productLoader = (await import("~/routes/product.$id")).loader;
  apiSearch = (await import("~/routes/api.search")).loader;
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The search page's answer: a redirect (thrown, or returned with the jump's signals) or the page's data. */
async function search(query: string): Promise<{ location: string | null; rows: string[] }> {
  try {
    const response = (await searchLoader({ request: new Request(`http://localhost/crib-search/search?${query}`), params: {}, context: {} })) as Response;
    if (response.status === 302) return { location: response.headers.get("Location"), rows: [] };
    const data = (await response.json()) as { view: { rows: { itemNumber: string }[] } };
    return { location: null, rows: data.view.rows.map((r) => r.itemNumber) };
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    expect(thrown.status).toBe(302);
    return { location: thrown.headers.get("Location"), rows: [] };
  }
}

const item = sampleItem(11);
const number = String(item.item_number_s);

describe("a search for one item's number", () => {
  it("opens the item, the list one click away, for the number as written, scanned, spaced or without separators", async () => {
    for (const typed of [number, number.toLowerCase(), number.replace(/[^A-Za-z0-9]/g, ""), ` ${number} `]) {
      const { location } = await search(new URLSearchParams({ q: typed }).toString());
      const expectedList = `/crib-search/search?${new URLSearchParams({ q: typed.trim(), list: "1" })}`;
      expect(location).toBe(`/product/${encodeURIComponent(number)}?${new URLSearchParams({ back: expectedList })}`);
    }
  });

  it("opens the item for its manufacturer part number", async () => {
    const mfr = String(item.attribute_manufacturer_part_number_s);
    const { location } = await search(new URLSearchParams({ q: mfr }).toString());
    expect(location?.startsWith(`/product/${encodeURIComponent(number)}?`)).toBe(true);
  });

  it("opens the item whatever filters and sort the box carried along, the filtered list one Back away", async () => {
    const otherOrg = String(item.attribute_org_code_s) === "LOU" ? "ZZZ" : "LOU";
    for (const extra of [`&f=org_code:${otherOrg}`, `&nf=org_code:${String(item.attribute_org_code_s)}`, "&sort=org_code+asc"]) {
      const { location } = await search(`q=${encodeURIComponent(number)}${extra}`);
      expect(location?.startsWith(`/product/${encodeURIComponent(number)}?`), extra).toBe(true);
      const back = new URLSearchParams(location!.split("?")[1]).get("back") ?? "";
      expect(new URLSearchParams(back.split("?")[1]).get("list"), extra).toBe("1");
    }
  });

  it("shows the list with list=1, a later page or search-within terms", async () => {
    for (const extra of ["&list=1", "&page=2", "&within=x"]) {
      const { location } = await search(`q=${encodeURIComponent(number)}${extra}`);
      expect(location?.startsWith("/product/") ?? false, extra).toBe(false);
    }
    expect((await search(`q=${encodeURIComponent(number)}&list=1`)).rows).toEqual([number]);
  });

  it("shows the list for words, part-number prefixes and numbers no item has", async () => {
    for (const q of ["pump", number.slice(0, 6), "ZZ99999999", `${number} -x`]) {
      expect((await search(new URLSearchParams({ q }).toString())).location).toBeNull();
    }
  });

  it("records the search and the click", async () => {
    await search(new URLSearchParams({ q: number }).toString());
    const signals = await readSignals();
    const search_ = signals.filter((s) => s.type === "search" && s.data.query === number).at(-1);
    const click = signals.filter((s) => s.type === "click" && s.data.docId === item.id).at(-1);
    expect(search_?.data).toMatchObject({ numResults: 1 });
    expect(click?.data).toMatchObject({ position: 0, query: number, action: "result", itemNumber: number });
  });

  it("shows the list, and logs the failure, when the number's look-up fails", async () => {
    const lookUp = vi.spyOn(services().search, "findByNumber").mockRejectedValueOnce(new Error("the catalogue went away"));
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const { location, rows } = await search(new URLSearchParams({ q: number }).toString());
      expect(lookUp).toHaveBeenCalledTimes(1);
      expect(location).toBeNull();
      expect(rows).toEqual([number]);
      expect(logged).toHaveBeenCalledWith(expect.stringMatching(/^\[[^\]]+\] the look-up of a number failed$/), expect.objectContaining({ message: "the catalogue went away" }));
    } finally {
      lookUp.mockRestore();
      logged.mockRestore();
    }
  });

  it("gives the item page an 'All results for' link to the list, only when it came from a jump", async () => {
    const back = `/crib-search/search?${new URLSearchParams({ q: number, list: "1" })}`;
    const opened = (await productLoader({ request: new Request(`http://localhost/product/${number}?${new URLSearchParams({ back })}`), params: { id: number }, context: {} })) as {
      allResults: { query: string; href: string } | null;
    };
    expect(opened.allResults).toEqual({ query: number, href: back });
    const plain = (await productLoader({ request: new Request(`http://localhost/product/${number}?back=/crib-search/search?q=pump`), params: { id: number }, context: {} })) as {
      allResults: unknown;
    };
    expect(plain.allResults).toBeNull();
  });
});

describe("a pasted list of numbers", () => {
  const numbers = [sampleItem(40), sampleItem(7), sampleItem(301)].map((doc) => String(doc.item_number_s));
  const page = async (q: string) => {
    const response = (await searchLoader({ request: new Request(`http://localhost/crib-search/search?${new URLSearchParams({ q })}`), params: {}, context: {} })) as Response;
    return (await response.json()) as { view: { total: number; rows: { itemNumber: string }[] }; numberList: { asked: number; found: number; missing: string[] } | null; exportMenu: unknown; pickListHref: unknown };
  };

  it("lists exactly those items, in the list's order, and names the numbers not found", async () => {
    const data = await page(`${numbers[0]}, ${numbers[1]}\nNOPE-00001 ${numbers[2]!.toLowerCase()}`);
    expect(data.view.rows.map((r) => r.itemNumber)).toEqual(numbers);
    expect(data.view.total).toBe(3);
    expect(data.numberList).toEqual({ asked: 4, found: 3, missing: ["NOPE-00001"] });
    // The query's full-text export and pick list would not be this list.
    expect(data.exportMenu).toBeNull();
    expect(data.pickListHref).toBeNull();
  });

  it("searches as text when no number of it names an item", async () => {
    const data = await page("NOPE-00001 NOPE-00002");
    expect(data.numberList).toBeNull();
  });
});

describe("a query that its kept filters leave empty", () => {
  const page = async (query: string) => {
    const response = (await searchLoader({ request: new Request(`http://localhost/crib-search/search?${query}`), params: {}, context: {} })) as Response;
    return (await response.json()) as { view: { total: number }; widerSearch: { scope: string; label: string; href: string } | null };
  };

  it("says how many the query finds in all items, with the link to it", async () => {
    const word = String(item.item_description_t ?? "").split(/\s+/).find((w) => w.length > 3) ?? "pump";
    const all = await page(new URLSearchParams({ q: word }).toString());
    expect(all.view.total).toBeGreaterThan(0);
    expect(all.widerSearch).toBeNull();
    const filtered = await page(new URLSearchParams({ q: word, f: "category:No Such Category" }).toString());
    expect(filtered.view.total).toBe(0);
    expect(filtered.widerSearch).toEqual({
      scope: "0 in Category: No Such Category",
      label: `${all.view.total.toLocaleString("en-US")} in all items`,
      href: `/crib-search/search?${new URLSearchParams({ q: word })}`,
    });
  });

  it("says nothing when the query finds nothing anywhere", async () => {
    expect((await page(new URLSearchParams({ q: "zzqqxxnothing", f: "category:Pumps" }).toString())).widerSearch).toBeNull();
  });

  it("offers the correction of a typo that its filters leave empty, and how many the correction finds in all items", async () => {
    type Rescued = { view: { total: number }; didYouMean: { query: string; href: string } | null; widerSearch: { label: string; href: string } | null };
    const rescued = async (query: string) => (await page(query)) as unknown as Rescued;
    const word = String(item.item_description_t ?? "").split(/\s+/).find((w) => /^[a-z]{7,}$/i.test(w))!.toLowerCase();
    const typo = `${word.slice(0, 3)}${word[4]}${word[3]}${word.slice(5)}`;
    const correct = await rescued(new URLSearchParams({ q: word }).toString());
    expect(correct.view.total).toBeGreaterThan(0);
    // Under a filter nothing in the catalogue is in, the typo finds nothing, nor does its correction.
    const filtered = await rescued(new URLSearchParams({ q: typo, f: "category:No Such Category" }).toString());
    expect(filtered.view.total).toBe(0);
    expect(filtered.didYouMean).toEqual({ query: word, href: `/crib-search/search?${new URLSearchParams({ q: word })}` });
    expect(filtered.widerSearch).toEqual({ scope: "0 in Category: No Such Category", label: `${correct.view.total.toLocaleString("en-US")} in all items`, href: `/crib-search/search?${new URLSearchParams({ q: word })}` });
    // Under the item's own category the correction finds it: the filter is kept.
    const category = String(item.category_s);
    const kept = await rescued(new URLSearchParams({ q: typo, f: `category:${category}` }).toString());
    if (kept.view.total === 0) {
      expect(kept.didYouMean).toEqual({ query: word, href: `/crib-search/search?${new URLSearchParams({ q: word, f: `category:${category}` })}` });
      expect(kept.widerSearch).toBeNull();
    }
  });
});

describe("the API's query tree", () => {
  const api = async (params: Record<string, string>) =>
    (await apiSearch({ request: new Request(`http://localhost/api/search?${new URLSearchParams(params)}`), params: {}, context: {} })) as Response;

  it("takes the tree as JSON in place of q", async () => {
    const tree = { all: [[{ kind: "word", text: "oven" }]], none: [{ kind: "word", text: "wall" }] };
    const byTree = (await (await api({ query: JSON.stringify(tree), rows: "100" })).json()) as { data: { numFound: number } };
    const byText = (await (await api({ q: "oven -wall", rows: "100" })).json()) as { data: { numFound: number } };
    expect(byTree.data.numFound).toBeGreaterThan(0);
    expect(byTree.data.numFound).toBe(byText.data.numFound);
  });

  it("refuses a tree that is not one, with a 400", async () => {
    for (const query of ["{", '{"all":"x"}', JSON.stringify({ all: [[{ kind: "regex", text: "a" }]], none: [] })]) {
      expect((await api({ query })).status).toBe(400);
    }
  });
});
