/**
 * /embed in either page theme with either widget theme: every link a person sees reaches WCAG AA
 * contrast (4.5:1) against the background it is drawn on (issue 29 point 9: in dark mode 20 links
 * were at 2.38:1). Measured in the browser from the computed colours, at 320 and 1280 px.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { BASE_URL } from "../../playwright.config";
import { isJs } from "./helpers";

const themeCookie = (mode: string) => ({ name: "theme-storage", value: encodeURIComponent(Buffer.from(JSON.stringify(mode)).toString("base64")), url: BASE_URL });

/** Every visible link's text and its contrast ratio against the nearest opaque background behind it. */
function linkContrasts(page: Page): Promise<{ text: string; ratio: number }[]> {
  return page.evaluate(() => {
    const rgb = (css: string) => (css.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const lin = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
    };
    // Up through the widgets' shadow roots to their hosts.
    const parentOf = (e: Element): Element | null => e.parentElement ?? ((e.getRootNode() as ShadowRoot).host || null);
    const background = (element: Element): number[] => {
      for (let e: Element | null = element; e; e = parentOf(e)) {
        const c = rgb(getComputedStyle(e).backgroundColor);
        if (c.length === 3 || (c.length === 4 && c[3]! > 0.9)) return c.slice(0, 3);
      }
      return [255, 255, 255];
    };
    const links = (root: Document | ShadowRoot): HTMLAnchorElement[] => [
      ...root.querySelectorAll("a"),
      ...[...root.querySelectorAll("*")].flatMap((e) => (e.shadowRoot ? links(e.shadowRoot) : [])),
    ];
    return links(document)
      .filter((a) => a.getClientRects().length > 0 && getComputedStyle(a).visibility !== "hidden")
      .map((a) => {
        const [l1, l2] = [luminance(rgb(getComputedStyle(a).color).slice(0, 3)), luminance(background(a))].sort((x, y) => y - x);
        return { text: (a.textContent ?? "").trim().slice(0, 40), ratio: Math.round(((l1! + 0.05) / (l2! + 0.05)) * 100) / 100 };
      });
  });
}

for (const width of [320, 1280]) {
  for (const pageTheme of ["light", "dark"]) {
    for (const widgetTheme of ["light", "dark"]) {
      test(`at ${width} px, page ${pageTheme}, widgets ${widgetTheme}: every link on /embed reaches 4.5:1`, async ({ page, context }, testInfo) => {
        await page.setViewportSize({ width, height: 640 });
        await context.addCookies([themeCookie(pageTheme)]);
        await page.goto(`/embed?theme=${widgetTheme}`);
        await expect(page.getByRole("heading", { level: 1, name: "Embeddable widgets" })).toBeVisible();
        // With JavaScript the widgets draw their results, each a link.
        if (isJs(testInfo)) await expect(page.locator("crib-results").getByRole("link").first()).toBeVisible();
        const links = await linkContrasts(page);
        expect(links.length).toBeGreaterThan(isJs(testInfo) ? 20 : 0);
        expect(links.filter((l) => l.ratio < 4.5)).toEqual([]);
      });
    }
  }
}
