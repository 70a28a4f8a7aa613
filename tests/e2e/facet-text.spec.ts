/**
 * A facet value's name, count and exclude control are separate words in the page's text, as a
 * text browser or a copy shows them ("Pumps 155 −", not "Pumps155−"), with and without JavaScript.
 */
import { expect, test } from "./fixtures";
import { facetGroup, facetValues, openSearch, searchUrl } from "./helpers";

test("facet counts are separated from the names in the text", async ({ page }, testInfo) => {
  await openSearch(page, testInfo, searchUrl({ q: "pump" }));
  const values = await facetValues(page, "Category");
  expect(values.length, "category values").toBeGreaterThan(0);
  const texts = await facetGroup(page, "Category")
    .locator("ul.facet-values > li")
    .evaluateAll((items) => items.map((li) => li.textContent ?? ""));
  expect(texts).toEqual(values.map((v) => `${v.value} ${v.count} −`));
});
