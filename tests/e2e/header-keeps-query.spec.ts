/**
 * Search pressed on the header box left as the page served it keeps the page's query, with and
 * without JavaScript: without it the box is served empty with the query as its placeholder
 * (docs/decisions/025), and the query goes along in the form (docs/decisions/042). A typed query
 * still replaces it.
 */
import { expect, test } from "./fixtures";
import { apiFacet, apiSearch, currentParams, headerSearch, openSearch, resultsHeading, SEARCH_PATH, searchUrl } from "./helpers";

async function filteredPumps(request: Parameters<typeof apiSearch>[0]): Promise<{ url: string; filter: string }> {
  const pumps = await apiSearch(request, { q: "pump", rows: 1 });
  const category = apiFacet(pumps, "category")[0]?.value;
  expect(category, "a category of the pump results").toBeTruthy();
  const filter = `category:${category}`;
  return { url: searchUrl({ q: "pump", f: filter }), filter };
}

test("Search on the untouched header box keeps the page's query and its filters", async ({ page, request }, testInfo) => {
  const { url, filter } = await filteredPumps(request);
  await openSearch(page, testInfo, url);
  await page.locator("form[role=search]").getByRole("button", { name: "Search", exact: true }).click();
  await expect(resultsHeading(page)).toBeVisible();
  await expect.poll(() => currentParams(page).get("q")).toBe("pump");
  expect(new URL(page.url()).pathname).toBe(SEARCH_PATH);
  expect(currentParams(page).getAll("f")).toEqual([filter]);
  expect(currentParams(page).has("was")).toBe(false);
});

test("a query typed into the header box replaces the page's query", async ({ page, request }, testInfo) => {
  const { url, filter } = await filteredPumps(request);
  await openSearch(page, testInfo, url);
  await headerSearch(page).fill("valve");
  await headerSearch(page).press("Enter");
  await expect.poll(() => currentParams(page).get("q")).toBe("valve");
  expect(currentParams(page).getAll("f")).toEqual([filter]);
  expect(currentParams(page).has("was")).toBe(false);
});

test("`*:*` typed into the header box still lists every item", async ({ page, request }, testInfo) => {
  const { url, filter } = await filteredPumps(request);
  await openSearch(page, testInfo, url);
  await headerSearch(page).fill("*:*");
  await headerSearch(page).press("Enter");
  await expect.poll(() => currentParams(page).has("q")).toBe(false);
  expect(currentParams(page).getAll("f")).toEqual([filter]);
  expect(currentParams(page).has("was")).toBe(false);
});
