/**
 * Phones, with JavaScript and without: on every page type at 320 and 412 px each control one can
 * see is a target of 24 × 24 CSS px at least (WCAG 2.2's target size: checkboxes, a card's item
 * number, links in tables and breadcrumbs included), and its text is 16 px at least.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { findBomHead, searchUrl } from "./helpers";

/** Controls one can see smaller than 24 px either way, and text under 16 px, as readable lines. */
function audit(page: Page): Promise<{ small: string[]; tiny: string[] }> {
  return page.evaluate(() => {
    const name = (el: Element) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? `.${el.className.trim().split(/\s+/).join(".")}` : ""}`;
    const hidden = (el: Element) => el.closest(".visually-hidden, .skip-link, thead") !== null && getComputedStyle(el).position !== "static";
    const small: string[] = [];
    for (const el of document.querySelectorAll("a[href], button, input:not([type=hidden]), select, summary, textarea")) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(el).visibility === "hidden" || hidden(el)) continue;
      if (box.width < 24 || box.height < 24) small.push(`${name(el.parentElement!.parentElement!)} > ${name(el)} "${(el.textContent ?? "").trim().slice(0, 30)}" ${Math.round(box.width)}×${Math.round(box.height)}`);
    }
    const tiny = new Set<string>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!node.textContent?.trim() || !el || el.closest("script, style, svg, .visually-hidden, .skip-link")) continue;
      if (el.getBoundingClientRect().width === 0) continue;
      const size = parseFloat(getComputedStyle(el).fontSize);
      if (size < 16) tiny.add(`${name(el)} ${size} px "${node.textContent.trim().slice(0, 30)}"`);
    }
    return { small: [...new Set(small)], tiny: [...tiny] };
  });
}

for (const width of [320, 412]) {
  test(`at ${width} px every control is a 24 px target and every text 16 px, on each page type`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: 720 });
    const { component: item, head } = await findBomHead(request, "asset", (lines) => lines.length > 0, "has lines");
    const encoded = encodeURIComponent(item);
    const pages = [
      "/crib-search",
      searchUrl({ q: "pump" }),
      searchUrl({ q: "pump", export: "all" }),
      searchUrl({ q: "zzqqxxj" }),
      `/product/${encoded}`,
      `/bom/${encoded}`,
      `/where-used/${encoded}`,
      `/boms/${encodeURIComponent(head)}`,
    ];
    for (const path of pages) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      const { small, tiny } = await audit(page);
      expect(small, `${path}: controls under 24 px`).toEqual([]);
      expect(tiny, `${path}: text under 16 px`).toEqual([]);
    }
  });
}
