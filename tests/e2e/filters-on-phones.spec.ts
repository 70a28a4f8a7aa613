/**
 * Filters on a phone, with JavaScript and without: the results come first and the filters after
 * them, so a "Filters" link beside the results heading goes to them and unfolds them; after a
 * choice the panel stays unfolded, so the next filter is one tap on that link away, and without
 * JavaScript the search box still has the focus for a scan. On a wide screen the link is not shown.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { facetGroup, facetPanel, FACET_LABELS, includeLink, isJs, openSearch, resultsHeading, searchUrl, selectedFilters } from "./helpers";

const HEIGHT = 720;

const jump = (page: Page) => page.getByRole("link", { name: /^Filters( \(\d+\))?$/ });

/** The top of the element is inside the window (a jump to it may leave it a subpixel above). */
async function expectOnScreen(page: Page, selector: string, what: string): Promise<void> {
  const top = await page.locator(selector).first().evaluate((el) => el.getBoundingClientRect().top);
  expect(top, `${what} is on screen`).toBeGreaterThanOrEqual(-1);
  expect(top, `${what} is on screen`).toBeLessThan(HEIGHT);
}

for (const width of [320, 412]) {
  test(`at ${width} px the Filters link beside the results heading opens the filters, which stay open after a choice`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: HEIGHT });
    await openSearch(page, testInfo, searchUrl({ q: "pump" }));
    const link = jump(page);
    await expect(link).toHaveText("Filters");
    const box = (await link.boundingBox())!;
    expect(box.y + box.height, "the link is on the first screen").toBeLessThanOrEqual(HEIGHT);
    expect(Math.min(box.width, box.height), "a target of at least 24 px").toBeGreaterThanOrEqual(24);
    await expect(facetPanel(page).locator("details.filters")).not.toHaveAttribute("open", /.*/);

    await link.click();
    await expect(facetPanel(page).locator("details.filters")).toHaveAttribute("open", /.*/);
    const status = facetGroup(page, FACET_LABELS.status);
    await expect(status.locator("summary")).toBeVisible();
    await expectOnScreen(page, "#filters details.facet", "the first facet group");

    const value = (await status.locator(".facet-name").first().textContent())!;
    await includeLink(page, FACET_LABELS.status, value).click();
    await expect(selectedFilters(page).locator("li > span")).toHaveText([`Status is ${value}`]);
    // A new page (without JavaScript) or new results (with): the panel is unfolded still.
    await expect(facetPanel(page).locator("details.filters")).toHaveAttribute("open", /.*/);
    await expect(jump(page)).toHaveText("Filters (1)");
    if (!isJs(testInfo)) await expect(page.locator("#site-search")).toBeFocused();
    else await expect(resultsHeading(page)).toBeFocused();

    // The next filter: one tap on the link, and the groups are on screen again.
    await jump(page).click();
    await expectOnScreen(page, "#filters details.facet", "the first facet group");
    const category = facetGroup(page, FACET_LABELS.category);
    const next = (await category.locator(".facet-name").first().textContent())!;
    await includeLink(page, FACET_LABELS.category, next).click();
    await expect(selectedFilters(page).locator("li > span")).toHaveText([`Status is ${value}`, `Category is ${next}`]);
    await expect(facetPanel(page).locator("details.filters")).toHaveAttribute("open", /.*/);
  });
}

test("a page opened from an address serves the filters folded on a phone, and a wide screen has no Filters link", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 360, height: HEIGHT });
  await openSearch(page, testInfo, searchUrl({ q: "pump", f: "status:Active" }));
  await expect(facetPanel(page).locator("details.filters")).not.toHaveAttribute("open", /.*/);
  await expect(jump(page)).toHaveText("Filters (1)");
  await page.setViewportSize({ width: 1280, height: HEIGHT });
  await expect(jump(page)).toBeHidden();
});
