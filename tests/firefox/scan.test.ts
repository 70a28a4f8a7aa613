/**
 * Scans in Firefox ESR, Debian's, the second browser of the shop floor (issue 36, point 1). Playwright's
 * Firefox is a patched build that this project never downloads, so Debian's is driven by
 * puppeteer-core over WebDriver BiDi. A wedge scan (a key every 8 ms and Enter, nothing clicked)
 * after each step a picker takes opens the scanned item: with JavaScript, without it (Firefox's own
 * switch), and in lite mode (pages with no script).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LITE_COOKIE } from "../../playwright.config";
import { apiSearch } from "../catalogue-probes";
import { cacheDb, startPortal, type TestPortal } from "../http/portal";

const FIREFOX = "/usr/bin/firefox-esr";
const skipped = fs.existsSync(FIREFOX) ? null : `${FIREFOX} is missing (apt-get install -y firefox-esr)`;

type Mode = "js" | "nojs" | "lite";
const MODES: Mode[] = ["js", "nojs", "lite"];

let portal: TestPortal;
let downloads: string;
let scanned: string;
const browsers = new Map<Mode, Browser>();

async function launch(mode: Mode): Promise<Browser> {
  return puppeteer.launch({
    browser: "firefox",
    executablePath: FIREFOX,
    headless: true,
    extraPrefsFirefox: {
      "javascript.enabled": mode === "js",
      // A CSV attachment is saved without asking, where the test can see it.
      "browser.download.folderList": 2,
      "browser.download.dir": downloads,
      "browser.download.useDownloadDir": true,
      "browser.download.always_ask_before_handling_new_types": false,
    },
  });
}

async function newPage(mode: Mode): Promise<Page> {
  const page = await browsers.get(mode)!.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  if (mode === "lite") await page.setCookie({ ...LITE_COOKIE, domain: "127.0.0.1", path: "/" });
  return page;
}

const pathOf = (page: Page) => new URL(page.url()).pathname + new URL(page.url()).search;

/**
 * Polls `check` in the page until it holds: puppeteer's waitForFunction polls with the page's own
 * timers, which a page without JavaScript does not run.
 */
async function until(page: Page, check: () => boolean, what: string): Promise<void> {
  const limit = Date.now() + 15_000;
  while (!(await page.evaluate(check).catch(() => false))) {
    if (Date.now() > limit) throw new Error(`waited for ${what} on ${pathOf(page)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until the address satisfies `wanted` and the page has loaded (and, with JavaScript, hydrated). */
async function waitForAddress(page: Page, wanted: (address: string) => boolean, what: string): Promise<void> {
  const limit = Date.now() + 15_000;
  while (!wanted(pathOf(page))) {
    if (Date.now() > limit) throw new Error(`waited for ${what}; the address is ${pathOf(page)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await until(page, () => document.readyState === "complete" && !document.querySelector(".is-stale"), "the page to load");
}

async function hydrated(page: Page, mode: Mode): Promise<void> {
  if (mode !== "js") return;
  // React sets its fiber on the elements it adopts (as tests/e2e/helpers.ts's waitForReact reads).
  await until(page, () => Object.keys(document.querySelector("main > *") ?? {}).some((key) => key.startsWith("__reactFiber")), "React to hydrate the page");
}

/**
 * Clicks the first element matching `selector` whose text or label starts with `text`, with the
 * mouse: element handles need a script realm that Firefox closes when its JavaScript is off.
 */
async function clickText(page: Page, selector: string, text = ""): Promise<void> {
  const point = await page.evaluate(
    (selector, text) => {
      const element = [...document.querySelectorAll(selector)].find((el) => (el.getAttribute("aria-label") ?? el.textContent ?? "").trim().startsWith(text));
      if (!element) return null;
      element.scrollIntoView({ block: "center" });
      const box = element.getBoundingClientRect();
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    },
    selector,
    text,
  );
  if (!point) throw new Error(`no ${selector} reading "${text}" on ${pathOf(page)}`);
  await page.mouse.click(point.x, point.y);
}

async function scan(page: Page, code: string): Promise<void> {
  await page.keyboard.type(code, { delay: 8 });
  await page.keyboard.press("Enter");
  await waitForAddress(page, (address) => address.startsWith(`/product/${encodeURIComponent(code)}?`), `the item page of ${code}`);
  const title = await page.evaluate(() => document.getElementById("product-title")?.textContent ?? "");
  expect(title).toContain(`(${code})`);
}

async function openFirstItem(page: Page, mode: Mode): Promise<void> {
  await clickText(page, "a.row-link");
  await waitForAddress(page, (address) => address.startsWith("/product/"), "an item page");
  await hydrated(page, mode);
}

type Step = (page: Page, mode: Mode) => Promise<void>;

const STEPS: [string, Step][] = [
  ["nothing (the page as loaded)", async () => {}],
  ["a filter", async (page, mode) => {
    await clickText(page, "#filters a[aria-label]", "Include Category: ");
    await waitForAddress(page, (address) => address.includes("f=category"), "a filtered list");
    await hydrated(page, mode);
  }],
  ["a page change", async (page, mode) => {
    await clickText(page, "nav.pager a[aria-label]", "Next page");
    await waitForAddress(page, (address) => address.includes("page=2"), "page 2");
    await hydrated(page, mode);
  }],
  ["a column's sort", async (page, mode) => {
    await clickText(page, "a.sort-link");
    await waitForAddress(page, (address) => address.includes("sort="), "a sorted list");
    await hydrated(page, mode);
  }],
  ["the export dialog's Cancel", async (page, mode) => {
    await clickText(page, "details.export-menu summary");
    await clickText(page, "details.export-menu a", "Export all results");
    await until(page, () => document.querySelector("dialog.export-dialog[open]") !== null, "the export dialog");
    await clickText(page, "dialog.export-dialog a", "Cancel");
    await until(page, () => !document.querySelector("dialog.export-dialog"), "the export dialog to close");
    await hydrated(page, mode);
  }],
  ["the item page's Next", async (page, mode) => {
    await openFirstItem(page, mode);
    const first = pathOf(page);
    await clickText(page, "nav.item-nav a", "Next: ");
    await waitForAddress(page, (address) => address.startsWith("/product/") && address !== first, "the next item");
    await hydrated(page, mode);
  }],
  ["the item page's Export", async (page, mode) => {
    await openFirstItem(page, mode);
    const before = new Set(fs.readdirSync(downloads));
    await clickText(page, "a.button", "Export (");
    const limit = Date.now() + 15_000;
    while (!fs.readdirSync(downloads).some((name) => !before.has(name) && name.endsWith(".csv"))) {
      if (Date.now() > limit) throw new Error("the item's CSV was not downloaded");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await hydrated(page, mode);
  }],
];

describe.skipIf(skipped !== null)(`scans in Firefox ESR${skipped ? ` (skipped: ${skipped})` : ""}`, () => {
  beforeAll(async () => {
    downloads = fs.mkdtempSync(path.join(os.tmpdir(), "crib-firefox-"));
    portal = await startPortal({ E2E_CATALOG_DB: cacheDb("firefox.db"), E2E_SAMPLE_ITEMS: "5000" });
    const get = async (address: string) => {
      const response = await fetch(`${portal.url}${address}`);
      return { status: response.status, text: () => response.text() };
    };
    scanned = String((await apiSearch(get, { q: "valve", rows: 1 })).docs[0]?.item_number_s ?? "");
    for (const mode of MODES) browsers.set(mode, await launch(mode));
  });

  afterAll(async () => {
    for (const browser of browsers.values()) await browser.close();
    await portal?.stop();
    if (downloads) fs.rmSync(downloads, { recursive: true, force: true });
  });

  for (const mode of MODES) {
    for (const [what, step] of STEPS) {
      it(`${mode}: a scan after ${what} opens the scanned item`, async () => {
        expect(scanned).not.toBe("");
        const page = await newPage(mode);
        try {
          await page.goto(`${portal.url}/crib-search/search?q=pump`);
          await hydrated(page, mode);
          await step(page, mode);
          await scan(page, scanned);
        } finally {
          await page.close();
        }
      });
    }
  }
});
