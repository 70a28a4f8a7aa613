import { describe, expect, it } from "vitest";
import { pageWindow, pagerView, totalPages } from "./pager";

describe("the pager", () => {
  it("counts at least one page", () => {
    expect(totalPages(0, 20)).toBe(1);
    expect(totalPages(41, 20)).toBe(3);
  });

  it("shows up to 5 pages around the current one, first and last, gaps between", () => {
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(10, 20)).toEqual([1, "gap", 8, 9, 10, 11, 12, "gap", 20]);
    expect(pageWindow(20, 20)).toEqual([1, "gap", 16, 17, 18, 19, 20]);
  });

  it("links every page but the ends it is on", () => {
    const view = pagerView(1, 7, (p) => `?page=${p}`);
    expect(view).toMatchObject({ page: 1, totalPages: 7, first: null, prev: null, next: "?page=2", last: "?page=7" });
    expect(view.links.at(-1)).toEqual({ kind: "page", page: 7, href: "?page=7", current: false });
    expect(view.links[0]).toEqual({ kind: "page", page: 1, href: "?page=1", current: true });
    expect(pagerView(7, 7, (p) => `?page=${p}`)).toMatchObject({ next: null, last: null, prev: "?page=6", first: "?page=1" });
  });
});
