/**
 * The search's addresses that answer with a redirect, followed as a browser follows them: the
 * short and old links, the Where Used shortcut, a page past the end. (Moved from the browser
 * suite: they look at nothing a browser adds.)
 */
import { describe, expect, it } from "vitest";
import { apiSearch, headingText } from "../catalogue-probes";
import { HOME_PATH, SEARCH_PATH, searchUrl, urlWith } from "../search-urls";
import { element, textOf } from "./html";
import { get } from "./server";

const PAGE_SIZE = 20;

/** The results heading's text, or null when the page has none. */
function resultsHeading(html: string): string | null {
  const heading = element(html, "h1", 'id="results-heading"');
  return heading === null ? null : textOf(heading);
}

describe("short and old links", () => {
  it("redirect: / to /crib-search, /search keeps its query", async () => {
    const home = await get("/");
    expect(urlWith(HOME_PATH)(new URL(home.url)), home.url).toBe(true);
    expect(resultsHeading(await home.text())).toMatch(/^\d+ results$/);

    const old = await get("/search?q=x");
    expect(urlWith(SEARCH_PATH, [["q", "x"]])(new URL(old.url)), old.url).toBe(true);
    expect(resultsHeading(await old.text())).toMatch(/^\d+ results for "x"$/);
  });

  it("the header's untouched box (q empty, the query it showed in `was`) keeps the query; a typed query wins", async () => {
    const kept = await get(`${SEARCH_PATH}?q=&was=pump&f=status%3AActive&sort=item_number+asc`);
    expect(urlWith(SEARCH_PATH, [["q", "pump"], ["f", "status:Active"], ["sort", "item_number asc"]])(new URL(kept.url)), kept.url).toBe(true);
    const typed = await get(`${SEARCH_PATH}?q=valve&was=pump`);
    expect(urlWith(SEARCH_PATH, [["q", "valve"]])(new URL(typed.url)), typed.url).toBe(true);
    const all = await get(`${SEARCH_PATH}?q=&was=pump&f=status%3AActive&all=1`);
    expect(urlWith(SEARCH_PATH, [["q", "pump"]])(new URL(all.url)), all.url).toBe(true);
  });

  it("?where-used=ITEM goes to that item's Where Used page", async () => {
    const item = String((await apiSearch(get, { q: "pump", rows: 1 })).docs[0]?.item_number_s ?? "");
    expect(item).not.toBe("");
    const target = `/where-used/${encodeURIComponent(item)}`;

    expect(new URL((await get(searchUrl({ "where-used": item }))).url).pathname).toBe(target);
    expect(new URL((await get(searchUrl({ q: "pump", "where-used": ` ${item} ` }))).url).pathname).toBe(target);
  });
});

describe("paging", () => {
  it("a page past the end shows the last page with the right count", async () => {
    const { numFound } = await apiSearch(get, { q: "pump", rows: 0 });
    const pages = Math.ceil(numFound / PAGE_SIZE);
    const response = await get(searchUrl({ q: "pump", page: 99999 }));
    expect(response.status).toBe(200);
    expect(urlWith(SEARCH_PATH, [["q", "pump"], ["page", String(pages)]])(new URL(response.url)), response.url).toBe(true);
    const html = await response.text();
    expect(resultsHeading(html)).toBe(headingText(numFound, "pump"));
    const current = /aria-current="page"[^>]*>([\s\S]*?)<\/a>/.exec(element(html, "nav", 'aria-label="Pages"') ?? "")?.[1];
    expect(textOf(current ?? "")).toBe(String(pages));
    const rows = element(element(html, "table", 'class="results-table') ?? "", "tbody", "") ?? "";
    expect(rows.match(/<tr\b/g) ?? []).toHaveLength(numFound - (pages - 1) * PAGE_SIZE);
  });
});
