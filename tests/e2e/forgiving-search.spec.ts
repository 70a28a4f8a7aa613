/**
 * Search that forgives what people type: a scanned item number opens its item, `-word` leaves
 * words out, plurals find the singular, a misspelling offers the correction. Each test runs with
 * and without JavaScript, with the same assertions; the rules themselves are tested in
 * tests/integration/number-jump.test.ts and tests/relevance.
 */
import { expect, test } from "./fixtures";
import { generateItems } from "../../app/search/engines/embedded/sample-data";
import { columnTexts, currentPath, escapeRegExp, headingText, HOME_PATH, openSearch, resultsHeading, searchUrl, shownTotal, specificationRows, submitHeaderSearch } from "./helpers";

// Item 3333 of the 5,000-item sample catalogue the suite's portal serves.
const ITEM = "MRO-8595673";

test("a scanned item number opens its item, the search one Back away and the list one link away", async ({ page }, testInfo) => {
  await openSearch(page, testInfo, HOME_PATH);
  // What a scanner types when the label has no hyphen, then Enter.
  await submitHeaderSearch(page, "mro8595673");
  await expect(page).toHaveURL(new RegExp(`/product/${ITEM}\\?`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(ITEM);

  const allResults = page.getByRole("link", { name: "All results for “mro8595673”" });
  await allResults.click();
  await expect(resultsHeading(page)).toHaveText(headingText(1, "mro8595673"));
  expect(currentPath(page)).toBe("/crib-search/search?q=mro8595673&list=1");

  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/product/${ITEM}\\?`));
  await page.goBack();
  expect(currentPath(page)).toBe(HOME_PATH);
});

test("-word leaves the word out, a plural finds the singular, a misspelling offers the correction", async ({ page }, testInfo) => {
  await openSearch(page, testInfo, searchUrl({ q: "oven" }));
  const ovens = await shownTotal(page);

  await openSearch(page, testInfo, searchUrl({ q: "oven -wall" }));
  const withoutWall = await shownTotal(page);
  expect(withoutWall).toBeGreaterThan(0);
  expect(withoutWall).toBeLessThan(ovens);
  const descriptions = await columnTexts(page, "Item Description");
  expect(descriptions.length).toBeGreaterThan(0);
  for (const text of descriptions) expect(text).not.toMatch(/wall/i);

  await openSearch(page, testInfo, searchUrl({ q: "ovens" }));
  expect(await shownTotal(page)).toBe(ovens);

  await openSearch(page, testInfo, searchUrl({ q: "refrigerater" }));
  await expect(resultsHeading(page)).toHaveText(headingText(0, "refrigerater"));
  await page.locator(".did-you-mean").getByRole("link", { name: "refrigerator", exact: true }).click();
  await expect(resultsHeading(page)).toContainText('results for "refrigerator"');
  expect(await shownTotal(page)).toBeGreaterThan(0);
});

for (const width of [320, 1280]) {
  test(`at ${width} px a three-letter slip in one word of several offers the correction`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: 640 });
    await openSearch(page, testInfo, searchUrl({ q: "condensate pmp" }));
    await expect(resultsHeading(page)).toHaveText(headingText(0, "condensate pmp"));
    const offer = page.locator(".did-you-mean");
    await expect(offer).toHaveText("Did you mean condensate pump?");
    await expect(offer).toBeInViewport();
    await offer.getByRole("link", { name: "condensate pump" }).click();
    await expect(resultsHeading(page)).toHaveText(/^\d+ results for "condensate pump"$/);
    expect(await shownTotal(page)).toBeGreaterThan(0);
  });
}

for (const width of [320, 1280]) {
  test(`at ${width} px the part numbers an item page shows as CMPN and ACMPN find it: the CMPN opens it, the ACMPN lists "1 result"`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: 640 });
    // Items of the suite's sample catalogue (the generator is the catalogue's own) with a CMPN, and with an ACMPN only.
    const docs = [...generateItems(5000)];
    const withCmpn = docs.find((d) => d.attribute_cmpn_s)!;
    const withAcmpn = docs.find((d) => d.attribute_acmpn_s && !d.attribute_cmpn_s)!;

    await page.goto(`/product/${encodeURIComponent(String(withCmpn.item_number_s))}`);
    const cmpn = new Map(await specificationRows(page)).get("CMPN");
    expect(cmpn, "the CMPN shown on the item page").toMatch(/^\d{3}[A-Z]\d{4}P\d{3}$/);
    await openSearch(page, testInfo, HOME_PATH);
    await submitHeaderSearch(page, cmpn!);
    await expect(page).toHaveURL(new RegExp(`/product/${escapeRegExp(encodeURIComponent(String(withCmpn.item_number_s)))}\\?`));
    await expect(page.getByRole("heading", { level: 1 })).toContainText(String(withCmpn.item_number_s));

    await page.goto(`/product/${encodeURIComponent(String(withAcmpn.item_number_s))}`);
    const acmpn = new Map(await specificationRows(page)).get("ACMPN")!;
    await openSearch(page, testInfo, HOME_PATH);
    await submitHeaderSearch(page, acmpn.toLowerCase());
    await expect(resultsHeading(page)).toHaveText(`1 result for "${acmpn.toLowerCase()}"`);
    expect(await columnTexts(page, "Item Number")).toEqual([withAcmpn.item_number_s]);
  });
}
