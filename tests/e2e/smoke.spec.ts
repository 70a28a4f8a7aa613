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
