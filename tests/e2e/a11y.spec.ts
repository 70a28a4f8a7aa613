/**
 * Automated accessibility check with axe-core: no serious or critical violation on any page type.
 * axe is slow on a busy runner (seconds per page), so each page type is analysed once, and the
 * types are shared between two passes: the light theme with JavaScript (home, item, BOM, sign-in)
 * and the dark theme in lite mode (a search with include and exclude filters, a sort, search-within
 * terms and the export dialog open; Where Used; the 404 page). Both palettes and both kinds of
 * markup (hydrated, and the server's no-JavaScript controls) are covered; the contrast of every
 * colour pair of both palettes is also checked without a browser (app/styles/contrast.test.ts).
 *
 * Lite pages carry no script; axe runs as a script inside the page, so the lite pages are loaded
 * with JavaScript on in the browser (the lite cookie, not the browser, keeps the scripts away), which
 * also checks that each of them has no script element.
 */
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, statusError, test } from "./fixtures";
import { BASE_URL, LITE_COOKIE, SSO_PORTAL_URL } from "../../playwright.config";
import { apiSearch, findBomHead, HOME_PATH, openFromAnotherSite, searchUrl, waitForReact } from "./helpers";

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
}

type PageType = [what: string, url: string, status: number];

/** One address of each page type, from the catalogue the suite runs on: [light with JavaScript, dark in lite mode]. */
async function pageTypes(request: APIRequestContext): Promise<[PageType[], PageType[]]> {
  const pump = await apiSearch(request, { q: "pump", rows: 0 });
  const org = pump.facets.find((f) => f.field.includes("org_code"))?.values[0]?.value;
  const category = pump.facets.find((f) => f.field.includes("category"))?.values[1]?.value;
  expect(org && category, "pump results have org code and category facets").toBeTruthy();
  const { head, component: item } = await findBomHead(request, "asset", (lines) => lines.length > 0, "has lines");
  const path = encodeURIComponent(item);
  const search = searchUrl({ q: "pump", f: `org_code:${org}`, nf: `category:${category}`, within: "assembly", sort: "item_number asc" });
  return [
    [
      ["home", HOME_PATH, 200],
      ["item", `/product/${path}`, 200],
      ["BOM lines", `/boms/${encodeURIComponent(head)}`, 200],
      ["sign-in", `${SSO_PORTAL_URL}/login`, 200],
    ],
    [
      ["search with filters and the export dialog", `${search}&export=all`, 200],
      ["Where Used", `/where-used/${path}`, 200],
      ["BOM", `/bom/${path}`, 200],
      ["404", "/no/such/page", 404],
    ],
  ];
}

test.describe("accessibility", () => {
  // Run by the JavaScript project only (JS_ONLY_SPECS in playwright.config.ts).
  // axe walks the whole page in the browser's one thread: on a loaded 2-core runner one analysis of
  // a search page has taken several seconds, and each test analyses three or four pages.
  test.slow();

  test("home, item, BOM and sign-in pages in the light theme, with JavaScript, have no serious or critical axe violations", async ({ page, request }, testInfo) => {
    await page.emulateMedia({ colorScheme: "light" });
    const found: Record<string, unknown> = {};
    for (const [what, url, status] of (await pageTypes(request))[0]) {
      // Opened directly, /login signs in by itself: its page is what another site's link shows.
      const response = what === "sign-in" ? await openFromAnotherSite(page, url) : await page.goto(url);
      expect(response?.status(), `status of the ${what} page`).toBe(status);
      await expect(page.locator("html")).not.toHaveClass(/dark/);
      if (!url.startsWith("http")) await waitForReact(page, testInfo);
      const violations = await seriousViolations(page);
      if (violations.length > 0) found[what] = violations;
    }
    expect(found).toEqual({});
  });

  test("search with the export dialog, Where Used and 404 pages in the dark theme, in lite mode, have no script and no serious or critical axe violations", async ({ page, context, request, consoleErrors }) => {
    // The 404 page is one of the pages checked: the browser reports its status.
    consoleErrors.expect(statusError(404, "/no/such/page"));
    const themeCookie = { name: "theme-storage", value: encodeURIComponent(Buffer.from(JSON.stringify("dark")).toString("base64")) };
    // Cookies ignore ports: these reach the sign-in portal too.
    await context.addCookies([LITE_COOKIE, themeCookie].map((c) => ({ ...c, url: BASE_URL })));
    const found: Record<string, unknown> = {};
    for (const [what, url, status] of (await pageTypes(request))[1]) {
      const response = await page.goto(url);
      expect(response?.status(), `status of the ${what} page`).toBe(status);
      await expect(page.locator("html"), `${what}: the dark class on the root`).toHaveClass("dark");
      expect(await page.locator("script").count(), `${what}: scripts in lite mode`).toBe(0);
      const violations = await seriousViolations(page);
      if (violations.length > 0) found[what] = violations;
    }
    expect(found).toEqual({});
  });
});
