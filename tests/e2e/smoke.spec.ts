import { expect, test } from "@playwright/test";

test("the portal serves the sample catalogue and answers a search", async ({ page, request }) => {
  const ready = await request.get("/api/ready");
  expect(ready.status()).toBe(200);
  const api = await request.get("/api/search?q=");
  const body = await api.json();
  expect(body.data.numFound).toBeGreaterThan(0);

  await page.goto("/");
  await expect(page).toHaveURL(/\/crib-search$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${body.data.numFound} results`);

  await page.getByPlaceholder("Search", { exact: true }).fill("  pump  ");
  await page.getByPlaceholder("Search", { exact: true }).press("Enter");
  await expect(page).toHaveURL(/\/crib-search\/search\?q=pump$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^\d+ results for "pump"$/);
  await expect(page.getByRole("table").getByRole("row")).not.toHaveCount(1);
});

test("unknown pages answer 404 with the page-not-found screen", async ({ page }) => {
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "404 - Page not found" })).toBeVisible();
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

  await expect(page.getByRole("link", { name: /^Include / }).first()).toHaveText("+");
  await expect(page.getByRole("link", { name: /^Exclude / }).first()).toHaveText("−");
});
