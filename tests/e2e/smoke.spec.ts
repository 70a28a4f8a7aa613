import { expect, test } from "@playwright/test";
import { apiSearch, columnTexts, headingText, resultRows, waitForHydration } from "./helpers";

test("the portal serves the sample catalogue and answers a search", async ({ page, request }, testInfo) => {
  const ready = await request.get("/api/ready");
  expect(ready.status()).toBe(200);
  const all = await apiSearch(request, { q: "" });
  expect(all.numFound).toBeGreaterThan(0);
  const pump = await apiSearch(request, { q: "pump", rows: 20 });
  expect(pump.numFound).toBeGreaterThan(0);

  await page.goto("/");
  await expect(page).toHaveURL(/\/crib-search$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(headingText(all.numFound));
  // With JavaScript the search below must be the client's navigation, not the plain form's.
  await waitForHydration(page, testInfo);

  await page.getByPlaceholder("Search", { exact: true }).fill("  pump  ");
  await page.getByPlaceholder("Search", { exact: true }).press("Enter");
  await expect(page).toHaveURL(/\/crib-search\/search\?q=pump$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(headingText(pump.numFound, "pump"));
  await expect(resultRows(page)).toHaveCount(Math.min(20, pump.numFound));
  expect(await columnTexts(page, "Item Number")).toEqual(pump.docs.map((d) => String(d.item_number_s)));
});

test("unknown pages answer 404 with the page-not-found screen", async ({ page }) => {
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "404 - Page not found" })).toBeVisible();
});

// Any character above U+00FF makes V8 build the whole page as a two-byte string, which costs the
// server about 6% of a search page's time (docs/decisions/009): the search page writes only
// Latin-1 of its own, and the stylesheet draws the arrows and signs.
test("the search page writes Latin-1 only, and its arrows and signs come from the stylesheet", async ({ page, request }) => {
  const url = "/crib-search/search?q=pump&sort=item_number_s%20asc&page=3";
  const html = await (await request.get(url)).text();
  expect(html).toContain("<mark>");
  expect(html).toContain('class="gap"');
  expect(html).toContain('"cells":[');
  expect([...html].filter((c) => c.codePointAt(0)! > 0xff)).toEqual([]);

  await page.goto(url);
  const drawn = (selector: string) =>
    page.locator(selector).first().evaluate((element) => getComputedStyle(element, "::before").content);
  expect(await drawn(".facet-toggle.include")).toBe('"+"');
  expect(await drawn(".facet-toggle.exclude")).toBe('"\u2212"');
  expect(await drawn(".sort-indicator.asc")).toBe('"\u25B2"');
  expect(await drawn(".sort-indicator:not(.active)")).toBe('"\u2195"');
  expect(await drawn(".pager .step.prev")).toBe('"\u2039"');
  expect(await drawn(".pager .step.next")).toBe('"\u203A"');
  expect(await drawn(".pager .gap")).toBe('"\u2026"');
  await expect(page.getByRole("link", { name: "Next page", exact: true })).toBeVisible();
  await expect(page).toHaveTitle("pump · Crib Search");
});
