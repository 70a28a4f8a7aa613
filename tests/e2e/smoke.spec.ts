import { expect, test } from "./fixtures";
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

  await page.locator("#site-search").fill("  pump  ");
  await page.locator("#site-search").press("Enter");
  await expect(page).toHaveURL(/\/crib-search\/search\?q=pump$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(headingText(pump.numFound, "pump"));
  await expect(resultRows(page)).toHaveCount(Math.min(20, pump.numFound));
  expect(await columnTexts(page, "Item Number")).toEqual(pump.docs.map((d) => String(d.item_number_s)));
});

test("the search page's arrows and signs are text in the page, and each control keeps its name", async ({ page }) => {
  await page.goto("/crib-search/search?q=pump&sort=item_number_s%20asc&page=3");
  const pages = page.getByRole("navigation", { name: "Pages" });
  await expect(pages.getByRole("link", { name: "Previous page", exact: true })).toHaveText("‹");
  await expect(pages.getByRole("link", { name: "Next page", exact: true })).toHaveText("›");
  await expect(pages.locator(".gap").first()).toHaveText("…");
  await expect(pages.locator(".gap").first()).toHaveAttribute("aria-hidden", "true");

  const sorted = page.getByRole("columnheader", { name: /Item Number/ });
  await expect(sorted).toHaveAttribute("aria-sort", "ascending");
  await expect(sorted.locator(".sort-indicator")).toHaveText("▲");
  await expect(page.locator("th:not([aria-sort]) .sort-indicator").first()).toHaveText("↕");

  // A facet value's own link includes it (its name and count); the exclude control is the sign.
  const include = page.getByRole("link", { name: /^Include / }).first();
  await expect(include.locator(".facet-name")).not.toBeEmpty();
  await expect(include.locator(".count")).toHaveText(/^\d+$/);
  await expect(page.getByRole("link", { name: /^Exclude / }).first()).toHaveText("−");
});
