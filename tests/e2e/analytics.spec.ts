import { expect, test } from "./fixtures";
import { waitForHydration } from "./helpers";

test("a search from the search box is counted on /analytics, whose tables download as CSV", async ({ page }, testInfo) => {
  const query = `pump ${testInfo.project.name}${Date.now().toString(36)}`;
  await page.goto("/crib-search");
  await waitForHydration(page, testInfo);
  await page.locator("#site-search").fill(query);
  await page.locator("#site-search").press("Enter");
  await expect(page).toHaveURL(/\/crib-search\/search\?q=/);

  await page.goto("/analytics?days=7");
  await expect(page.getByRole("heading", { level: 1, name: "Search analytics" })).toBeVisible();
  const top = page.getByRole("region", { name: "Top queries" });
  await expect(top.getByRole("row").filter({ hasText: query })).toHaveCount(1);
  await expect(page.getByRole("img", { name: /^Searches per day/ })).toBeVisible();
  await page.getByRole("link", { name: "Last 30 days" }).click();
  await expect(page).toHaveURL(/\/analytics\?days=30$/);
  await expect(page.getByText("Last 30 days", { exact: true })).toHaveAttribute("aria-current", "page");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export top queries as CSV" }).click();
  expect((await download).suggestedFilename()).toMatch(/^analytics-top-queries-30-days-\d{4}-\d{2}-\d{2}\.csv$/);
});
