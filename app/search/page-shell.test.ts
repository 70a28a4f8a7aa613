import { describe, expect, it } from "vitest";
import { PLAIN_SHELL, resultsShell, shellFromBack } from "./page-shell";
import { withBack } from "./paths";

const search = "/crib-search/search?q=pump&f=category%3AMotors&within=red&rows=50&page=2";

describe("page shells", () => {
  it("keeps a results page's filters, sort and page size, not its page nor search-within", () => {
    const hidden: [string, string][] = [["q", "pump"], ["f", "category:Motors"], ["within", "red"], ["rows", "50"], ["page", "2"]];
    expect(resultsShell({ query: "pump", hidden }, false)).toEqual({ query: "pump", keep: [["f", "category:Motors"], ["rows", "50"]], autoFocus: true, skipTarget: "#results-heading" });
    expect(resultsShell({ query: "pump", hidden }, true).autoFocus).toBe(false);
  });

  it("reads the search a page came from, directly or through the item page it was opened from", () => {
    const fromSearch = { query: "pump", keep: [["f", "category:Motors"], ["rows", "50"]], autoFocus: true, skipTarget: "#main" };
    expect(shellFromBack(search)).toEqual(fromSearch);
    expect(shellFromBack(withBack("/product/A-1", search))).toEqual(fromSearch);
  });

  it("is the plain shell for any other way back", () => {
    expect(shellFromBack("/crib-search")).toEqual(PLAIN_SHELL);
    expect(shellFromBack(withBack("/where-used/A-1", search))).toEqual(PLAIN_SHELL);
    expect(shellFromBack(withBack("/product/A-1", withBack("/product/B-1", search)))).toEqual(PLAIN_SHELL);
  });
});
