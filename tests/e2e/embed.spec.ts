import http from "node:http";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { BASE_URL } from "../../playwright.config";
import { isJs } from "./helpers";

test.describe.configure({ mode: "serial" });

const PORT = Number(new URL(BASE_URL).port);
/** The portal's EMBED_ORIGINS list these two (playwright.config.ts); the third is not in it. */
const ALLOWED = { js: PORT + 70, nojs: PORT + 71 } as const;
const REFUSED = { js: PORT + 72, nojs: PORT + 73 } as const;

/** A plain HTML page of another site that embeds the widgets, as the /embed page tells it to. */
const foreignPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Intranet</title>
<script src="${BASE_URL}/embed/widgets.js" defer></script></head><body><main><h1>Parts on the intranet</h1>
<crib-search-box endpoint="${BASE_URL}"><form action="${BASE_URL}/crib-search/search" method="get"><input name="q" aria-label="Search parts"><button>Search</button></form></crib-search-box>
<crib-facets endpoint="${BASE_URL}"></crib-facets>
<crib-results endpoint="${BASE_URL}" view="list"></crib-results></main></body></html>`;

function serve(port: number): Promise<http.Server> {
  const server = http.createServer((_req, res) => res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(foreignPage));
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

let servers: http.Server[] = [];
// eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures from the pattern
test.beforeAll(async ({}, testInfo) => {
  const name = isJs(testInfo) ? "js" : "nojs";
  servers = await Promise.all([serve(ALLOWED[name]), serve(REFUSED[name])]);
});
test.afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

const results = (page: Page) => page.locator("crib-results");

test("/embed shows the status, the configuration without a key, the view toggle and the widgets", async ({ page }, testInfo) => {
  await page.goto("/embed");
  await expect(page.getByRole("heading", { level: 1, name: "Embeddable widgets" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Status:" })).toHaveText("Status: Embeddables Only");
  await page.getByText("Configuration", { exact: true }).click();
  await expect(page.getByText("Held by the portal; never sent to a browser")).toBeVisible();
  await page.getByRole("link", { name: "List", exact: true }).click();
  await expect(page).toHaveURL(/view=list/);
  await expect(results(page)).toHaveAttribute("view", "list");
  if (isJs(testInfo)) {
    await expect(results(page).getByRole("status")).toHaveText(/^1-20 of \d+$/);
    await expect(results(page).getByRole("list")).toHaveClass("crib-list");
    const facets = page.locator("crib-facets").locator("fieldset");
    await expect(facets.first()).toBeVisible();
    expect(await facets.first().getByRole("checkbox").count()).toBeLessThanOrEqual(10);
    // Suggestions (the catalogue's item numbers) from 3 characters; a pick searches for it.
    const box = page.locator("crib-search-box").getByRole("combobox");
    await box.fill("WH4");
    const option = page.locator("crib-search-box").getByRole("option").first();
    const picked = (await option.textContent())!;
    await option.getByRole("button").click();
    await expect(box).toHaveValue(picked);
    await expect(results(page).getByRole("link").first()).toHaveAttribute("href", new RegExp(`/product/${encodeURIComponent(picked)}$`));
    await box.fill("pump");
    await box.press("Enter");
    await expect(results(page).getByRole("status")).toHaveText(/^1-\d+ of \d+$/);
    await results(page).getByRole("button", { name: "Next" }).click();
    await expect(results(page).getByText(/^Page 2 of \d+$/)).toBeVisible();
  } else {
    // Without JavaScript the search box is the plain form the page wrote inside it.
    const widget = page.locator("crib-search-box");
    await widget.getByRole("searchbox").fill("pump");
    await widget.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\/crib-search\/search\?q=pump/);
  }
});

test("the widgets work on a page of an allowed origin, never see a key, and are refused elsewhere", async ({ page, consoleErrors }, testInfo) => {
  const name = isJs(testInfo) ? "js" : "nojs";
  const apiCalls: string[] = [];
  page.on("request", (request) => {
    if (request.url().startsWith(`${BASE_URL}/api/`)) apiCalls.push(request.url());
  });
  await page.goto(`http://127.0.0.1:${ALLOWED[name]}/`);
  if (!isJs(testInfo)) {
    await page.getByRole("textbox", { name: "Search parts" }).fill("pump");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(`${BASE_URL}/crib-search/search?q=pump`);
    return;
  }
  await expect(results(page).getByRole("status")).toHaveText(/^1-20 of \d+$/);
  await page.locator("crib-search-box").getByRole("combobox").fill("valve");
  await page.locator("crib-search-box").getByRole("combobox").press("Enter");
  await expect(results(page).getByRole("status")).toHaveText(/of \d+$/);
  const first = results(page).getByRole("link").first();
  await expect(first).toHaveAttribute("href", new RegExp(`^${BASE_URL}/product/`));
  expect(apiCalls.length).toBeGreaterThan(0);
  const script = await (await page.request.get(`${BASE_URL}/embed/widgets.js`)).text();
  expect(script).not.toMatch(/api[-_]?key/i);

  // The portal refuses the widgets' search from an origin it does not list, on purpose: the browser reports the blocked fetch.
  consoleErrors.expect(new RegExp(`^console\\.error: Access to fetch at '${BASE_URL}/api/search\\?[^']*' from origin 'http://127\\.0\\.0\\.1:${REFUSED[name]}' has been blocked by CORS policy: `));
  consoleErrors.expect(new RegExp(`^console\\.error: Failed to load resource: net::ERR_FAILED \\(${BASE_URL}/api/search\\?`));
  await page.goto(`http://127.0.0.1:${REFUSED[name]}/`);
  await expect(results(page).getByRole("alert")).toHaveText("The search is not available from this page.");
});
