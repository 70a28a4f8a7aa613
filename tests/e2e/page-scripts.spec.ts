/**
 * A page's scripts load after its first paint (docs/decisions/048): the first paint waits for the
 * document and its stylesheet alone, and the page then hydrates from the modules its loader names.
 * In lite mode (the no-JavaScript project) a page names no script and the browser fetches none.
 */
import { expect, test } from "./fixtures";
import { apiSearch, isJs, waitForHydration } from "./helpers";

for (const pageName of ["search", "Where Used"]) {
  test(`the ${pageName} page requests its scripts only after its first paint, and hydrates`, async ({ page, request }, testInfo) => {
    const item = (await apiSearch(request, { q: "pump", rows: 1 })).docs[0]!.item_number_s;
    const url = pageName === "search" ? "/crib-search/search?q=pump" : `/where-used/${encodeURIComponent(String(item))}`;
    const response = await page.goto(url);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const scripts = () => page.evaluate(() => performance.getEntriesByType("resource").filter((e) => new URL(e.name).pathname.startsWith("/build/") && e.name.endsWith(".js")).map((e) => ({ name: e.name, startTime: e.startTime })));
    if (!isJs(testInfo)) {
      expect(await scripts()).toEqual([]);
      expect(await page.locator("script").count()).toBe(0);
      return;
    }
    await waitForHydration(page, testInfo);
    await expect.poll(() => page.evaluate(() => typeof (window as unknown as { __remixRouter?: unknown }).__remixRouter)).toBe("object");
    // The page's first paint as the browser reports it: the time its first frame was on the screen.
    const paints = await page.evaluate(() => performance.getEntriesByType("paint").map((entry) => entry.startTime));
    expect(paints.length).toBeGreaterThan(0);
    const paintedAt = Math.min(...paints);
    const loaded = await scripts();
    // The framework, the entry, the route manifest, the root's and the page's route modules at least.
    expect(loaded.length).toBeGreaterThan(4);
    expect(loaded.filter((script) => script.startTime < paintedAt)).toEqual([]);
  });
}
