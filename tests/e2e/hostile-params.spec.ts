/**
 * Markup from hostile search parameters is shown as text and never runs in the browser. The
 * request-only checks of hostile parameters (statuses, canonical redirects, escaped HTML) are in
 * the HTTP suite, tests/http/hostile-params.test.ts.
 */
import { expect, test } from "./fixtures";
import { openSearch, resultsHeading, searchUrl } from "./helpers";

const SCRIPT = "<script>alert(1)</script>";

test.describe("hostile search parameters", () => {
  test("a script in a filter value is shown as text and never runs", async ({ page }, testInfo) => {
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await openSearch(page, testInfo, searchUrl({ f: `category:${SCRIPT}`, within: SCRIPT }));
    await expect(page.locator("section.selected-filters li > span")).toHaveText([`Category is ${SCRIPT}`]);
    await expect(resultsHeading(page)).toHaveText("0 results");

    await openSearch(page, testInfo, searchUrl({ q: SCRIPT }));
    await expect(resultsHeading(page)).toHaveText(/^\d+ results for "<script>alert\(1\)<\/script>"$/);
    // The only scripts are the app's own: none of them is the injected one.
    for (const text of await page.locator("script").allTextContents()) expect(text.toLowerCase()).not.toContain("<script>alert");
    expect(dialogs).toEqual([]);
  });
});
