/**
 * Automated accessibility check of the search page with axe-core: no serious or critical
 * violations on the home page and on a search with include and exclude filters, a sort and
 * search-within terms.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { apiSearch, HOME_PATH, openSearch, searchUrl } from "./helpers";

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
}

test.describe("accessibility", () => {
  // Skipped in the no-JavaScript project on purpose: axe runs as a script inside the page.
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "@axe-core/playwright runs axe inside the page and hangs when JavaScript is disabled");
  // axe walks the whole page in the browser's one thread: on a loaded 2-core runner, while the other
  // test portals are still warming up, one analysis has taken most of the default 30 s.
  test.slow();

  test("the home page has no serious or critical axe violations", async ({ page }, testInfo) => {
    await openSearch(page, testInfo, HOME_PATH);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("the home page in the dark colour scheme has no serious or critical axe violations", async ({ page }, testInfo) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await openSearch(page, testInfo, HOME_PATH);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("a search with filters, sort and search-within has no serious or critical axe violations", async ({ page, request }, testInfo) => {
    const pump = await apiSearch(request, { q: "pump", rows: 0 });
    const org = pump.facets.find((f) => f.field.includes("org_code"))?.values[0]?.value;
    const category = pump.facets.find((f) => f.field.includes("category"))?.values[1]?.value;
    expect(org && category).toBeTruthy();
    await openSearch(page, testInfo, searchUrl({ q: "pump", f: `org_code:${org}`, nf: `category:${category}`, within: "assembly", sort: "item_number asc" }));
    expect(await seriousViolations(page)).toEqual([]);
  });
});
