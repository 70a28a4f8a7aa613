import { describe, expect, it } from "vitest";
import { sectionControlsOf, sectionRowsOf } from "./bom-view";

describe("a section's page size and sort form", () => {
  it("takes the sizes offered and falls back to the section's own", () => {
    expect(sectionRowsOf(new URLSearchParams("asset-rows=50"), "asset", 5)).toBe(50);
    expect(sectionRowsOf(new URLSearchParams("asset-rows=7"), "asset", 5)).toBe(5);
    expect(sectionRowsOf(new URLSearchParams("pm-rows=50"), "asset", 5)).toBe(5);
  });

  it("carries the page's other parameters, not its own sort, size and page", () => {
    const params = new URLSearchParams("back=/crib-search&asset-page=3&asset-sort=org_code+asc&asset-rows=20&pm-page=2");
    const controls = sectionControlsOf(params, "asset", { page: 3, sort: { field: "org_code", direction: "asc" } }, 20);
    expect(controls).toMatchObject({ sortParam: "asset-sort", sortValue: "org_code asc", rowsParam: "asset-rows", rows: 20 });
    expect(controls.hidden).toEqual([
      ["back", "/crib-search"],
      ["pm-page", "2"],
    ]);
  });
});
