/**
 * A list of part numbers pasted or scanned into the search box, with JavaScript and without: the
 * page lists exactly those items and names the numbers that name none.
 */
import { expect, test } from "./fixtures";
import { apiSearch, HOME_PATH, resultRows, waitForReact } from "./helpers";

test("a pasted list of numbers lists exactly those items, the ones not found named", async ({ page, request }, testInfo) => {
  const { docs } = await apiSearch(request, { q: "seal", rows: 3 });
  const numbers = docs.map((d) => String(d.item_number_s));
  expect(numbers).toHaveLength(3);
  await page.goto(HOME_PATH);
  await waitForReact(page, testInfo);
  await page.locator("#site-search").fill(`${numbers[0]}, ${numbers[1]}; NOPE-00001 ${numbers[2]}`);
  await page.locator("#site-search").press("Enter");
  await expect(page.locator(".number-list")).toHaveText("3 of 4 numbers found. Not found: NOPE-00001");
  const shown = await resultRows(page).locator("a.row-link").allTextContents();
  expect(shown.map((t) => t.replace(/ \(inactive item\)$/, "").trim())).toEqual(numbers);
});
