/**
 * A scan lands whatever was done last (issue 36, point 1): after a filter, a page change, a sort,
 * the export dialog's Cancel, the item page's Next and its Export, a wedge scan (a key every 8 ms
 * and Enter, nothing clicked) opens the scanned item, with JavaScript and without. With
 * JavaScript those steps leave the focus on the results heading or on the link just used; the scan's
 * Enter must neither go nowhere nor follow that link. A hand typing in another field keeps its text.
 */
import type { Page, TestInfo } from "@playwright/test";
import { expect, test } from "./fixtures";
import { apiSearch, columnHeader, includeLink, isJs, openSearch, resultRows, resultsHeading, SEARCH_PATH, searchUrl, urlWith, waitForReact } from "./helpers";

const deviceClock = new WeakMap<Page, number>();

/**
 * Keys as a device sends them, `gap` ms apart by the device's clock, then Enter, into whatever has
 * the focus. Chromium takes each key event's time from the protocol's `timestamp`, so a loaded test
 * machine, whose calls may come late, still types at the device's pace.
 */
async function typeAtPace(page: Page, text: string, gap: number, { enter = true } = {}): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  // The device's clock never runs back, and a new burst starts well after the last key.
  const start = Math.max(Date.now() / 1000, (deviceClock.get(page) ?? 0) + 0.5);
  const at = (i: number) => start + (i * gap) / 1000;
  deviceClock.set(page, at(text.length));
  for (const [i, key] of [...text].entries()) {
    await cdp.send("Input.dispatchKeyEvent", { type: "keyDown", key, text: key, timestamp: at(i) });
    await cdp.send("Input.dispatchKeyEvent", { type: "keyUp", key, timestamp: at(i) + 0.002 });
  }
  if (enter) {
    const key = { key: "Enter", code: "Enter", windowsVirtualKeyCode: 13 };
    await cdp.send("Input.dispatchKeyEvent", { type: "keyDown", ...key, text: "\r", timestamp: at(text.length) });
    await cdp.send("Input.dispatchKeyEvent", { type: "keyUp", ...key, timestamp: at(text.length) + 0.002 });
  }
  await cdp.detach();
}

/** A wedge scanner: a key every 8 ms, then Enter. */
const scan = (page: Page, code: string) => typeAtPace(page, code, 8);

async function expectItemOpened(page: Page, item: string): Promise<void> {
  await expect(page).toHaveURL(new RegExp(`/product/${encodeURIComponent(item)}\\?`));
  await expect(page.locator("#product-title")).toContainText(`(${item})`);
}

type Step = (page: Page, testInfo: TestInfo) => Promise<void>;

async function settled(page: Page, testInfo: TestInfo): Promise<void> {
  await expect(resultsHeading(page)).not.toHaveClass(/is-stale/);
  await waitForReact(page, testInfo);
}

async function openItemFromResults(page: Page, testInfo: TestInfo): Promise<string> {
  await resultRows(page).first().locator("a.row-link").click();
  await expect(page.locator("#product-title")).toBeVisible();
  await waitForReact(page, testInfo);
  return new URL(page.url()).pathname;
}

const STEPS: [string, Step][] = [
  [
    "a filter",
    async (page, testInfo) => {
      const link = page.locator("#filters a[aria-label^='Include Category: ']").first();
      const value = ((await link.getAttribute("aria-label")) ?? "").slice("Include Category: ".length);
      await includeLink(page, "Category", value).click();
      await expect(page).toHaveURL(/[?&]f=category/);
      await settled(page, testInfo);
    },
  ],
  [
    "a page change",
    async (page, testInfo) => {
      await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Next page", exact: true }).click();
      await expect(page).toHaveURL(/[?&]page=2/);
      await settled(page, testInfo);
    },
  ],
  [
    "a sort",
    async (page, testInfo) => {
      await page.getByLabel("Sort By").selectOption({ label: "Org Code A-Z" });
      if (!isJs(testInfo)) await page.getByRole("button", { name: "Sort", exact: true }).click();
      await expect(page).toHaveURL(/[?&]sort=org_code/);
      await settled(page, testInfo);
    },
  ],
  [
    "a column's sort",
    async (page, testInfo) => {
      await columnHeader(page, "Item Number").getByRole("link").click();
      await expect(page).toHaveURL(/[?&]sort=item_number/);
      await settled(page, testInfo);
    },
  ],
  [
    "the export dialog's Cancel",
    async (page, testInfo) => {
      const menu = page.locator("details.export-menu");
      await menu.locator("summary").click();
      await menu.getByRole("link", { name: /^Export all results/ }).click();
      const dialog = page.locator("dialog.export-dialog");
      await expect(dialog.getByRole("heading", { name: "Export Search Results" })).toBeVisible();
      await waitForReact(page, testInfo);
      await dialog.getByRole("link", { name: "Cancel", exact: true }).click();
      await expect(dialog).toHaveCount(0);
      await settled(page, testInfo);
    },
  ],
  [
    "the item page's Next",
    async (page, testInfo) => {
      const first = await openItemFromResults(page, testInfo);
      await page.getByRole("navigation", { name: "Results" }).getByRole("link", { name: /^Next: / }).click();
      await expect(page).not.toHaveURL(new RegExp(`${first}\\?`));
      await waitForReact(page, testInfo);
    },
  ],
  [
    "the item page's Export",
    async (page, testInfo) => {
      await openItemFromResults(page, testInfo);
      const download = page.waitForEvent("download");
      await page.getByRole("link", { name: /^Export \(\d+ fields\)$/ }).click();
      expect((await download).suggestedFilename()).toMatch(/\.csv$/);
      await waitForReact(page, testInfo);
    },
  ],
];

for (const width of [320, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.beforeEach(async ({ page }) => page.setViewportSize({ width, height: 800 }));

    for (const [what, step] of STEPS) {
      // A phone shows cards, with the filters folded away; the other steps are the same at both widths.
      if ((what === "a filter" || what === "a column's sort") && width < 768) continue;
      test(`a scan after ${what} opens the scanned item`, async ({ page, request }, testInfo) => {
        const scanned = String((await apiSearch(request, { q: "valve", rows: 1 })).docs[0]?.item_number_s ?? "");
        expect(scanned, "an item no pump list shows first").not.toBe("");
        await openSearch(page, testInfo, searchUrl({ q: "pump" }));
        await step(page, testInfo);
        await scan(page, scanned);
        await expectItemOpened(page, scanned);
        if (!isJs(testInfo)) return;
        // Once more from the item page, where the focus is still on the link used last.
        await page.getByRole("link", { name: "View Where Used", exact: true }).focus();
        await scan(page, scanned);
        await expect(page).toHaveURL(new RegExp(`/product/${encodeURIComponent(scanned)}\\?`));
      });
    }
  });
}

test("typing by hand in another field stays that field's; a scan typed into it opens the item and leaves its text", async ({ page, request }, testInfo) => {
  test.skip(!isJs(testInfo), "Without JavaScript a scan into another field is that field's own search: nothing in the page can tell it apart.");
  const scanned = String((await apiSearch(request, { q: "valve", rows: 1 })).docs[0]?.item_number_s ?? "");
  await openSearch(page, testInfo, searchUrl({ q: "pump" }));
  const within = page.getByRole("searchbox", { name: "Search within" });
  await within.click();
  // A quick hand: 60 ms a key, and Enter 60 ms after the last.
  await typeAtPace(page, "pump", 60);
  await expect(page).toHaveURL(urlWith(SEARCH_PATH, [["q", "pump"], ["within", "pump"]]));
  await settled(page, testInfo);

  await within.click();
  await typeAtPace(page, "steel", 120, { enter: false });
  // What the field holds when the header's form is sent: its own text, without the scan's.
  await page.evaluate(() => {
    const record = () => {
      const field = document.getElementById("search-within") as HTMLInputElement;
      document.body.dataset.withinAtSubmit = field.value;
    };
    document.getElementById("site-search")!.closest("form")!.addEventListener("submit", record, { capture: true });
  });
  await scan(page, scanned);
  await expectItemOpened(page, scanned);
  // The same document (a client-side navigation): the record is still there.
  await expect(page.locator("body")).toHaveAttribute("data-within-at-submit", "steel");
});
