import { describe, expect, it } from "vitest";
import { resultsText } from "./result-count";

describe("resultsText", () => {
  it("agrees the noun with the number, with and without a query", () => {
    expect(resultsText(0)).toBe("0 results");
    expect(resultsText(1)).toBe("1 result");
    expect(resultsText(2, "pump")).toBe('2 results for "pump"');
    expect(resultsText(1, "835C5513P470")).toBe('1 result for "835C5513P470"');
    expect(resultsText(5000, "", (n) => n.toLocaleString("en-US"))).toBe("5,000 results");
  });
});
