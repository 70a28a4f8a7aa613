import { describe, expect, it } from "vitest";
import { backChainOf, pageBackOf, searchBackOf } from "./back-chain";
import { withBack } from "./paths";

const search = "/crib-search/search?q=pump&f=category%3AMotors&page=2";
const product = withBack("/product/A%2FB-1", search);
const whereUsed = withBack("/where-used/A-1", product);
const bom = withBack("/bom/A-1", whereUsed);

describe("backChainOf", () => {
  it("follows each page's own way back up to the search", () => {
    expect(backChainOf(bom).map((step) => [step.page, step.subject])).toEqual([
      ["bom", "A-1"],
      ["where-used", "A-1"],
      ["product", "A/B-1"],
      ["search", ""],
    ]);
    expect(backChainOf(bom)[3]?.href).toBe(search);
  });

  it("stops at a path that is neither a search nor a page with a way back, and at its length", () => {
    expect(backChainOf("/analytics")).toEqual([]);
    expect(backChainOf(withBack("/product/A-1", "/analytics")).map((step) => step.page)).toEqual(["product"]);
    expect(backChainOf(bom, 2).map((step) => step.page)).toEqual(["bom", "where-used"]);
  });

  it("takes a nested way back only when it is a same-site path", () => {
    expect(backChainOf(withBack("/product/A-1", "//evil.example/crib-search/search")).map((step) => step.page)).toEqual(["product"]);
  });

  it("shows a malformed escape in a path as written", () => {
    expect(backChainOf("/product/%E0%A4")[0]?.subject).toBe("%E0%A4");
  });
});

describe("searchBackOf and pageBackOf", () => {
  it("finds the search a few pages back, or the search home", () => {
    expect(searchBackOf(bom)).toBe(search);
    expect(searchBackOf(withBack("/boms/H-1", bom))).toBe(search);
    expect(searchBackOf(withBack("/pm-bom/X", withBack("/boms/H-1", bom)))).toBe("/crib-search");
    expect(searchBackOf("/analytics")).toBe("/crib-search");
  });

  it("names the page before when it is not a search", () => {
    expect(pageBackOf(whereUsed)).toEqual({ href: whereUsed, label: "← Back to Where Used" });
    expect(pageBackOf(search)).toBeNull();
    expect(pageBackOf("/crib-search")).toBeNull();
  });
});
