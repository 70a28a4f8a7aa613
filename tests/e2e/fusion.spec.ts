/**
 * Search through Fusion (the stand-in), its error texts, and the fallback to the backup catalogue
 * with the circuit breaker. The portal under test runs with FUSION_TIMEOUT_MS=1500,
 * FUSION_BREAKER_THRESHOLD=2 and FUSION_BREAKER_COOLDOWN_MS=5000 (scripts/e2e-server.mjs). The
 * stand-in runs under its supervisor (tests/fusion-stand-in/supervisor.ts), so a test can really kill
 * its process and start it again on the same port; faults (statuses, resets, hangs) are set through
 * its /__control API. Each browser project has a portal and stand-in of its own (playwright.config.ts),
 * so the projects never wait for each other; within a project the tests share them, so they run one
 * after the other (fullyParallel: false), and every test ends with the stand-in running.
 */
import type { APIRequestContext, Page } from "@playwright/test";
import type { FusionRig } from "../../playwright.config";
import { TYPEAHEAD } from "../../app/components/use-suggestions";
import { expect, test } from "./fixtures";
import { findBomHead, waitForReact } from "./helpers";

type Fault = { kind: "none" } | { kind: "status"; status: number } | { kind: "reset" } | { kind: "hang" } | { kind: "latency"; ms: number };

/** This project's own portal, stand-in and supervisor (playwright.config.ts), shared by no other project. */
function rig(): FusionRig {
  return test.info().project.metadata.fusion as FusionRig;
}

const QUERY_PATH = "/api/apps/parts/query/parts";
/** The backup notice names the backup catalogue's build date (the stand-in portal's sample catalogue is built at start-up). */
const NOTICE = /^The search platform is not answering; these results come from the backup catalogue of \d{1,2} [A-Z][a-z]+ \d{4}; stock figures may be out of date\.$/;

async function setFault(request: APIRequestContext, fault: Fault) {
  const response = await request.post(`${rig().standInUrl}/__control/fault`, { data: fault });
  expect(response.ok()).toBe(true);
}

/** Kills the stand-in's process (SIGKILL) or starts it again; both return once that is done. */
async function standIn(request: APIRequestContext, action: "kill" | "start") {
  const response = await request.post(`${rig().controlUrl}/${action}`, { timeout: 70_000 });
  expect(response.ok(), await response.text()).toBe(true);
  expect((await response.json()).running).toBe(action === "start");
}

async function breakerState(request: APIRequestContext): Promise<{ serving: string; state: string }> {
  const body = await (await request.get("/api/health")).json();
  return { serving: body.data.engines.serving, state: body.data.engines.primary.breaker.state };
}

/** Fusion healthy and the breaker closed again (a search lets the half-open trial through). */
async function healthy(request: APIRequestContext) {
  await setFault(request, { kind: "none" });
  await expect
    .poll(
      async () => {
        await request.get("/api/search?rows=0");
        return (await breakerState(request)).state;
      },
      { timeout: 15_000, intervals: [250, 500, 1000] },
    )
    .toBe("closed");
}

/**
 * The platform's health check (the root, then a one-row query for everything), which the probes'
 * state runs in the background on its own schedule (spec §7), apart from the pages' searches.
 */
function isHealthCheck(r: { path: string; params: [string, string][] }): boolean {
  const params = new URLSearchParams(r.params);
  return r.path === "/" || (params.get("q") === "*:*" && params.get("rows") === "1");
}

async function fusionRequests(request: APIRequestContext): Promise<{ path: string; params: [string, string][]; at: number }[]> {
  return (await request.get(`${rig().standInUrl}/__control/requests`)).json();
}

/** Opens a search and, with JavaScript, waits for hydration, so that clicks are the client's. */
async function search(page: Page, query: string) {
  await page.goto(`/crib-search/search?q=${encodeURIComponent(query)}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await waitForReact(page, test.info());
}

/** Searches once a second until a page comes from Fusion again (the breaker's trial succeeded). */
async function untilFusionAnswers(page: Page) {
  await expect
    .poll(
      async () => {
        await search(page, "pump");
        return page.getByText(/these results come from the backup catalogue/).count();
      },
      { timeout: 15_000, intervals: [1000] },
    )
    .toBe(0);
}

test.beforeEach(async ({ request }) => {
  await healthy(request);
  await request.delete(`${rig().standInUrl}/__control/requests`);
});

// A test that killed the stand-in (and failed before starting it) must not take the next ones down.
test.afterEach(async ({ request }) => {
  await standIn(request, "start");
});

test.afterAll(async ({ request }) => {
  await setFault(request, { kind: "none" });
});

test("results and facets come from Fusion, with filters sent as tagged, quoted fq", async ({ page, request }) => {
  await search(page, "pump");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^\d+ results for "pump"$/);
  await expect(page.getByText(NOTICE)).toHaveCount(0);
  const query = (await fusionRequests(request)).find((r) => r.path === QUERY_PATH && !isHealthCheck(r));
  expect(query).toBeDefined();
  const params = new URLSearchParams(query!.params);
  // The query language rendered for Solr: every word required (the default operator is OR).
  expect(params.get("q")).toBe("+pump");
  expect(JSON.parse(params.get("json.facet")!)).toHaveProperty("category_s.domain.excludeTags", "category_tag");

  const group = page.locator("details.facet", { has: page.getByRole("heading", { name: "Category" }) });
  const value = (await group.locator(".facet-name").first().textContent())!;
  const count = Number(await group.locator(".count").first().textContent());
  await group.getByRole("link", { name: `Include Category: ${value}` }).click();
  await expect(page).toHaveURL(/f=category%3A/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${count} results for "pump"`);
  const filtered = (await fusionRequests(request)).filter((r) => new URLSearchParams(r.params).has("fq")).at(-1);
  expect(new URLSearchParams(filtered!.params).getAll("fq")).toContain(`{!tag=category_tag}category_s:("${value}")`);
  expect((await breakerState(request)).serving).toBe("fusion");
});

test("the Stock Level filter asks Fusion for a function range, and its count is the items listed", async ({ page, request }) => {
  await search(page, "washer");
  const group = page.locator("details.facet", { has: page.getByRole("heading", { name: "Stock Level" }) });
  await expect(group.locator(".facet-name")).toHaveText(["Below minimum"]);
  const count = Number(await group.locator(".count").first().textContent());
  await group.getByRole("link", { name: "Include Stock Level: Below minimum" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${count} results for "washer"`);
  await expect(page.locator("table.results-table tbody tr .badge-low")).toHaveCount(Math.min(count, 20));
  const filtered = (await fusionRequests(request)).filter((r) => new URLSearchParams(r.params).has("fq")).at(-1);
  expect(new URLSearchParams(filtered!.params).getAll("fq")).toEqual([expect.stringMatching(/^\{!frange l=1 tag=stock_level_tag\}if\(and\(exists\(/)]);
  expect((await breakerState(request)).serving).toBe("fusion");
});

test("a misspelt word offers Did you mean with the corrected search", async ({ page }) => {
  await search(page, "pumpp");
  await expect(page.getByText("No data found. Please try adjusting your search criteria")).toBeVisible();
  const suggestion = page.locator(".did-you-mean").getByRole("link");
  await expect(suggestion).toHaveText("pump");
  await suggestion.click();
  await expect(page).toHaveURL(/\/crib-search\/search\?q=pump$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^\d+ results for "pump"$/);
});

/** The notice when the platform answered that the portal is set up wrongly: it says what, not "not answering". */
const noticeOf = (why: string) => new RegExp(`^${why}; these results come from the backup catalogue of \\d{1,2} [A-Z][a-z]+ \\d{4}; stock figures may be out of date\\.$`);
const KEY_REFUSED = noticeOf("The search platform refused the portal's key");

for (const [status, text, notice] of [
  [401, "Authentication failed - API key may be invalid or expired", KEY_REFUSED],
  [403, "Access forbidden - API key may not have required permissions", KEY_REFUSED],
  [404, "Query profile or collection not found - check configuration", noticeOf("The search platform does not know the portal's search set-up")],
] as const) {
  test(`Fusion answering ${status} is answered from the backup with the notice, and health tells operators why`, async ({ page, request }) => {
    await setFault(request, { kind: "status", status });
    await search(page, "valve");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^\d+ results for "valve"$/);
    await expect(page.getByText(notice)).toBeVisible();
    // The operator's text is for health and the log, not for the page.
    await expect(page.getByText(text)).toHaveCount(0);
    const health = (await (await request.get("/api/health")).json()).data;
    expect(health).toMatchObject({ status: "degraded", engines: { primary: { configurationError: text } } });
    await setFault(request, { kind: "none" });
    await untilFusionAnswers(page);
    // Health answers from state refreshed in the background (every second): it follows shortly.
    await expect.poll(async () => (await (await request.get("/api/health")).json()).data.status, { timeout: 15_000 }).toBe("ok");
  });
}

test("when the stand-in's process is killed the backup catalogue answers with a notice, and Fusion takes over again", async ({ page, request }) => {
  test.setTimeout(90_000);
  await standIn(request, "kill");
  await expect(request.get(`${rig().standInUrl}/api`)).rejects.toThrow(/ECONNREFUSED/);
  await search(page, "pump");
  await expect(page.getByText(NOTICE)).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^\d+ results for "pump"$/);
  await search(page, "valve");
  await expect(page.getByText(NOTICE)).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^\d+ results for "valve"$/);
  expect(await breakerState(request)).toEqual({ serving: "embedded", state: "open" });

  // The stand-in is started again: after the cool-down one trial request closes the breaker by itself.
  await standIn(request, "start");
  await untilFusionAnswers(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^\d+ results for "pump"$/);
  expect(await breakerState(request)).toEqual({ serving: "fusion", state: "closed" });
});

test("when Fusion resets connections the backup catalogue answers with a notice, and Fusion answers again", async ({ page, request }) => {
  await setFault(request, { kind: "reset" });
  await search(page, "pump");
  await expect(page.getByText(NOTICE)).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^\d+ results for "pump"$/);

  await setFault(request, { kind: "none" });
  await untilFusionAnswers(page);
  expect(await breakerState(request)).toEqual({ serving: "fusion", state: "closed" });
});

test("an item's pages answered from the backup say so too", async ({ page, request }) => {
  const found = await (await request.get("/api/search?q=pump&rows=1")).json();
  const item: string = found.data.docs[0].item_number_s;
  const { head } = await findBomHead(request, "asset", (lines) => lines.length > 0, "has lines");
  await page.goto(`/product/${encodeURIComponent(item)}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(item);
  await expect(page.getByText(NOTICE)).toHaveCount(0);

  await setFault(request, { kind: "reset" });
  await page.goto(`/product/${encodeURIComponent(item)}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(item);
  await expect(page.getByText(NOTICE)).toBeVisible();
  await page.goto(`/where-used/${encodeURIComponent(item)}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Where Used: ${item}`);
  await expect(page.getByText(NOTICE)).toBeVisible();
  await page.goto(`/boms/${encodeURIComponent(head)}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(head);
  await expect(page.getByText(NOTICE)).toBeVisible();
});

test("an export asked for as Fusion stops answering says the file would come from the backup, and offers it", async ({ page, request }) => {
  await search(page, "pump");
  await expect(page.getByText(NOTICE)).toHaveCount(0);
  await page.goto("/crib-search/search?q=pump&export=all");
  await expect(page.getByRole("heading", { name: "Export Search Results" })).toBeVisible();
  await waitForReact(page, test.info());
  await setFault(request, { kind: "status", status: 503 });
  await page.getByRole("button", { name: /^Export CSV/ }).click();
  // No file from another catalogue in silence: the dialog comes back and says so.
  await expect(page.getByText(/^The search platform is not answering: this file would come from the backup catalogue of \d{1,2} [A-Z][a-z]+ \d{4}\.$/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Try again" })).toBeVisible();
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download from the backup catalogue" }).click();
  expect((await download).suggestedFilename()).toMatch(/^backup-all-results-\d{4}-\d{2}-\d{2}\.csv$/);
});

test("a hanging Fusion is asked until the breaker opens, then no page asks it", async ({ page, request }) => {
  // Each page that reaches the hanging stand-in waits for the timeout, and once the cool-down has
  // passed each health probe waits for the platform check's own 5 s root timeout (spec §7).
  test.slow();
  await setFault(request, { kind: "hang" });
  // Two requests wait for the timeout and are answered from the backup: the breaker opens.
  for (const q of ["pump", "valve"]) {
    await search(page, q);
    await expect(page.getByText(NOTICE)).toBeVisible();
  }
  expect((await breakerState(request)).state).toBe("open");
  expect((await fusionRequests(request)).filter((r) => r.path === QUERY_PATH && !isHealthCheck(r)).map((r) => new URLSearchParams(r.params).get("q"))).toEqual(["+pump", "+valve"]);

  // While the breaker is open no request reaches Fusion. Its cool-down may end during these pages
  // on a busy machine, and then one trial request may go out: the stand-in's log shows when each
  // request arrived, and none may come before the breaker's retry time.
  const { retryAt } = (await (await request.get("/api/health")).json()).data.engines.primary.breaker as { retryAt: number };
  expect(retryAt).toBeGreaterThan(0);
  await request.delete(`${rig().standInUrl}/__control/requests`);
  let servedWhileOpen = 0;
  for (const q of ["seal", "motor", "switch"]) {
    await search(page, q);
    await expect(page.getByText(NOTICE)).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(new RegExp(`^\\d+ results for "${q}"$`));
    if ((await breakerState(request)).state === "open") servedWhileOpen++;
  }
  expect(servedWhileOpen, "pages served with the breaker open").toBeGreaterThan(0);
  // Usage signals reach Fusion's Signals API on their own schedule (the outbox's back-off), not the searches' breaker.
  const early = (await fusionRequests(request)).filter((r) => r.at < retryAt && !r.path.startsWith("/api/signals/") && !isHealthCheck(r));
  expect(early, "requests that reached Fusion before the breaker's retry time").toEqual([]);
});

test("type-ahead, switched on, suggests from Fusion as one types; arrows and Enter search for one", async ({ page, request, javaScriptEnabled, consoleErrors }) => {
  // Skipped in the no-JavaScript project on purpose: the suggestions list exists only with JavaScript.
  test.skip(!javaScriptEnabled, "type-ahead is drawn by JavaScript; without it the box is the plain search form the other tests use");
  const asked: string[] = [];
  // What the browser sends of its own (browser.client.ts): the pick, then the time spent on the item.
  const sent: { type: string; data: Record<string, unknown> }[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/suggestions")) asked.push(new URL(r.url()).searchParams.get("q") ?? "");
    if (r.method() === "POST" && new URL(r.url()).pathname === "/api/signals") sent.push(...(r.postDataJSON() as { signals: typeof sent }).signals);
  });
  // The page's clock is Playwright's, so the test can run it past the type-ahead's wait at once.
  await page.clock.install();
  await page.goto("/crib-search");
  const box = page.getByLabel("Search the catalogue");
  await box.click();
  await expect(box).toHaveAttribute("role", "combobox");
  await expect(box).toHaveAttribute("aria-expanded", "false");

  // One character asks for nothing (at least 2, spec §4): with the wait after it run out, the only
  // request is the one for the second character's "WR", and one for "W" would have come before it.
  await box.pressSequentially("W");
  await page.clock.runFor(TYPEAHEAD.delayMs);
  expect(asked).toEqual([]);
  await box.pressSequentially("R", { delay: 50 });
  const list = page.getByRole("listbox", { name: "Suggestions" });
  const options = list.getByRole("option");
  await expect(options.first()).toBeVisible();
  await expect(box).toHaveAttribute("aria-expanded", "true");
  expect(asked).toEqual(["WR"]);
  const texts = await options.allTextContents();
  expect(texts.length).toBeGreaterThan(0);
  expect(texts.length).toBeLessThanOrEqual(8);
  for (const text of texts) expect(text.startsWith("WR")).toBe(true);
  const calls = (await fusionRequests(request)).filter((r) => r.path.endsWith("/suggest"));
  expect(calls.at(-1)?.params).toEqual(expect.arrayContaining([["suggest.q", "WR"], ["suggest.count", "8"]]));

  await box.press("ArrowDown");
  await box.press("ArrowDown");
  await box.press("ArrowUp");
  await expect(options.first()).toHaveAttribute("aria-selected", "true");
  await expect(box).toHaveAttribute("aria-activedescendant", "site-search-option-0");
  await box.press("Enter");
  // The suggestions are item numbers, and a search for exactly one item's number opens that item.
  await expect.poll(() => decodeURIComponent(new URL(page.url()).pathname)).toBe(`/product/${texts[0]}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(texts[0]!);
  // The pick is a type-ahead signal (the portal records signals: the root loader says so).
  await expect.poll(() => sent.find((signal) => signal.type === "typeahead")?.data, { timeout: 15_000 }).toMatchObject({ query: "WR", suggestion: texts[0], position: 0 });

  // Nothing to suggest, Escape, and a failed call.
  await box.fill("");
  await box.pressSequentially("ZZ-none", { delay: 20 });
  await expect(page.getByText("No suggestions found")).toBeVisible();
  await box.press("Escape");
  await expect(page.getByText("No suggestions found")).toBeHidden();
  await expect(box).toHaveAttribute("aria-expanded", "false");
  await page.route("**/api/suggestions**", (route) => route.abort());
  consoleErrors.expect(/^console\.error: Failed to load resource: net::ERR_FAILED \(\S+\/api\/suggestions\?/);
  await box.pressSequentially("X", { delay: 20 });
  await expect(page.getByText("Failed to load suggestions")).toBeVisible();

  // Leaving the item page for another of the portal's: the time spent on it follows.
  await page.goBack();
  await expect.poll(() => sent.find((signal) => signal.type === "view")?.data, { timeout: 15_000 }).toMatchObject({ docId: expect.any(String), viewDuration: expect.any(Number) });
});
