import { describe, expect, it } from "vitest";
import { formatRatio, medianRatio, verdict } from "./overhead-ratio";

describe("medianRatio", () => {
  it("takes the median of each round's ratio, not the ratio of the medians", () => {
    // Ratios 2, 1, 4: median 2. The medians of each column (10 and 8) would give 1.25.
    const ratio = medianRatio([
      { page: 10, floor: 5 },
      { page: 8, floor: 8 },
      { page: 40, floor: 10 },
    ]);
    expect(ratio).toEqual({ value: 2, rounds: 3, of: 3 });
  });

  it("averages the two middle ratios of an even number of rounds", () => {
    expect(medianRatio([{ page: 2, floor: 2 }, { page: 4, floor: 2 }]).value).toBe(1.5);
  });

  it("leaves out rounds whose floor is under a millisecond instead of dividing by it", () => {
    const ratio = medianRatio([
      { page: 10, floor: 0 },
      { page: 10, floor: 0.5 },
      { page: 9, floor: 3 },
    ]);
    expect(ratio).toEqual({ value: 3, rounds: 1, of: 3 });
    expect(formatRatio(ratio)).toContain("1 of 3 rounds");
  });

  it("gives no figure, and no verdict, when no round had a measurable floor", () => {
    const ratio = medianRatio([{ page: 10, floor: 0 }]);
    expect(ratio.value).toBeNull();
    expect(formatRatio(ratio)).toMatch(/^no figure/);
    expect(verdict(ratio, 2.5)).toBe("NO FIGURE");
  });
});

describe("verdict", () => {
  it("passes at the target and misses above it", () => {
    expect(verdict({ value: 2.5, rounds: 5, of: 5 }, 2.5)).toBe("PASS");
    expect(verdict({ value: 2.51, rounds: 5, of: 5 }, 2.5)).toBe("MISS");
  });
});
