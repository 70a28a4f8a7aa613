/**
 * Sign-in against a real OpenID Provider (tests/idp/server.ts), with and without JavaScript: the
 * way in from a protected deep link and back to it, the header, logout for good, and every
 * negative callback failing closed on the failure screen with no session.
 *
 * Each test signs in a user of its own (the project's name in it), so the tests run side by side;
 * the provider tampers with the ID token of users named `tamper-<mode>`.
 */
import type { BrowserContext, Page, Request, TestInfo } from "@playwright/test";
import { expect, statusError, test } from "./fixtures";
import { IDP_URL, SSO_PORTAL_URL } from "../../playwright.config";
import { openFromAnotherSite } from "./helpers";

const DEEP_LINK = "/crib-search/search?q=pump";
const SESSION_COOKIE = "crib-session";

function userName(testInfo: TestInfo, what: string): string {
  return `${what}-${testInfo.project.name}-${testInfo.workerIndex}-${testInfo.retry}`;
}

const atIdp = (url: URL) => url.origin === IDP_URL;
const atPortal = (url: URL) => url.origin === SSO_PORTAL_URL;

/**
 * On the provider's login form: signs in as `login` (any password does), and gives consent when
 * the provider asks; returns once the browser has left the provider.
 */
async function signInAtIdp(page: Page, login: string): Promise<void> {
  await page.waitForURL(atIdp);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  const consent = page.getByRole("button", { name: "Continue" });
  const left = page.waitForURL(atPortal);
  // The provider asks for consent the first time a user signs in to this client.
  const first = await Promise.race([left.then(() => "portal" as const), consent.waitFor().then(() => "consent" as const)]);
  if (first === "consent") {
    await consent.click();
    await page.waitForURL(atPortal);
  }
  await page.waitForLoadState();
}

/** The callback URL of the next sign-in that comes back to the portal. */
function captureCallback(page: Page): () => string {
  let seen = "";
  const listener = (request: Request) => {
    const url = new URL(request.url());
    if (atPortal(url) && url.pathname === "/callback" && url.searchParams.has("code")) seen = request.url();
  };
  page.on("request", listener);
  return () => {
    page.off("request", listener);
    expect(seen, "a callback with a code").not.toBe("");
    return seen;
  };
}

async function sessionCookie(context: BrowserContext) {
  return (await context.cookies(SSO_PORTAL_URL)).find((c) => c.name === SESSION_COOKIE);
}

/** No session: no session cookie, and the API refuses the browser. */
async function expectNoSession(page: Page): Promise<void> {
  expect(await sessionCookie(page.context())).toBeUndefined();
  const api = await page.request.get("/api/config");
  expect(api.status()).toBe(401);
}

async function expectAuthFailed(page: Page): Promise<void> {
  await expect(page.getByRole("heading", { name: "Authentication Failed" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Try Again" })).toHaveAttribute("href", "/login");
  expect(new URL(page.url()).pathname).toBe("/callback");
}

/** Signs in from the deep link and checks the way back to it. */
async function signInFromDeepLink(page: Page, login: string): Promise<void> {
  await page.goto(DEEP_LINK);
  await signInAtIdp(page, login);
  await expect(page).toHaveURL(`${SSO_PORTAL_URL}${DEEP_LINK}`);
  await expect(page.locator("#results-heading")).toBeVisible();
}

async function logout(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Logout" }).click();
  await page.waitForURL(atIdp);
  await page.getByRole("button", { name: "Yes, sign me out" }).click();
  // Back at the portal's signed-out page, with the state the portal sent.
  await page.waitForURL((url) => url.origin === SSO_PORTAL_URL && url.pathname === "/signed-out" && url.searchParams.has("state"));
  await expect(page.getByRole("heading", { name: "You have signed out" })).toBeVisible();
}

test("a protected deep link signs in and returns to it; the header shows the user and Logout", async ({ page }, testInfo) => {
  const login = userName(testInfo, "deep-link");
  await signInFromDeepLink(page, login);
  const header = page.locator("header.site-header");
  await expect(header.locator(".user-name")).toHaveText(`Pat ${login}`);
  await expect(header.getByRole("button", { name: "Logout" })).toBeVisible();
  const cookie = await sessionCookie(page.context());
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe("Lax");
  expect((await page.request.get("/api/config")).status()).toBe(200);
});

test("logout ends the session for good: the old cookie signs no one in", async ({ page, browser }, testInfo) => {
  await signInFromDeepLink(page, userName(testInfo, "logout"));
  const old = await sessionCookie(page.context());
  expect(old).toBeDefined();

  await logout(page);
  await expectNoSession(page);

  // The cookie saved before logout, put back into a fresh browser.
  const replay = await browser.newContext({ javaScriptEnabled: testInfo.project.use.javaScriptEnabled !== false });
  try {
    await replay.addCookies([old!]);
    const again = await replay.newPage();
    await again.goto(`${SSO_PORTAL_URL}${DEEP_LINK}`);
    await expect(again).toHaveURL((url) => atIdp(url) && url.pathname.startsWith("/interaction/"));
    const api = await replay.request.get(`${SSO_PORTAL_URL}/api/config`);
    expect(api.status()).toBe(401);
  } finally {
    await replay.close();
  }
});

test("Logout from a page whose session has already ended still signs out at the provider", async ({ page }, testInfo) => {
  await signInFromDeepLink(page, userName(testInfo, "logout-ended"));
  // The portal's session has gone (idle time, a refused renewal, another tab's logout) while the page stays open.
  await page.context().clearCookies({ name: (await sessionCookie(page.context()))!.name });
  await logout(page);
  // The provider's session ended too: the next sign-in asks for the password again.
  await page.goto(DEEP_LINK);
  await expect(page).toHaveURL((url) => atIdp(url) && url.pathname.startsWith("/interaction/"));
  await expect(page.locator('input[name="password"]')).toBeVisible();
});

test("/login opened directly starts sign-in by itself and comes back to the search", async ({ page }, testInfo) => {
  await page.goto("/login");
  await signInAtIdp(page, userName(testInfo, "login-direct"));
  await expect(page).toHaveURL(`${SSO_PORTAL_URL}/crib-search`);
  await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();
});

test("another site's link to /login shows the sign-in page, whose button signs in", async ({ page }, testInfo) => {
  await openFromAnotherSite(page, `${SSO_PORTAL_URL}/login`);
  await expect(page.getByRole("heading", { name: "Sign in to Crib Search" })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/login");
  await expect(page.getByRole("link", { name: "Back to search" })).toHaveAttribute("href", "/crib-search");
  // The page's own Contact Support (the footer has one too).
  await expect(page.locator("#main").getByRole("link", { name: "Contact Support" })).toBeVisible();
  await page.getByRole("button", { name: "Sign in with SSO" }).click();
  await signInAtIdp(page, userName(testInfo, "login-page"));
  await expect(page).toHaveURL(`${SSO_PORTAL_URL}/crib-search`);
  await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();
});

test("a hostile returnTo never leads off the site, through sign-in or when already signed in", async ({ page }, testInfo) => {
  const [first, ...others] = ["//evil.example/", "/\\evil.example", "/.//evil.example", "https://evil.example/"];
  await page.goto(`/login?${new URLSearchParams({ returnTo: first! })}`);
  await signInAtIdp(page, userName(testInfo, "return-to"));
  await expect(page).toHaveURL(`${SSO_PORTAL_URL}/crib-search`);
  for (const payload of others) {
    await page.goto(`/login?${new URLSearchParams({ returnTo: payload })}`);
    expect(atPortal(new URL(page.url())), payload).toBe(true);
    await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();
  }
});

test.describe("negative callbacks fail closed", () => {
  // Each test's callback is refused on purpose: the browser reports the portal's 401.
  test.beforeEach(({ consoleErrors }) => consoleErrors.expect(statusError(401, /\/callback\?\S*/)));

  test("a callback without state", async ({ page }) => {
    await page.goto("/callback?code=x");
    await expectAuthFailed(page);
    await expectNoSession(page);
  });

  test("a callback whose state was changed", async ({ page }, testInfo) => {
    // The provider's redirect back is rewritten on its way: the code is real, the state is not.
    // page.route never sees a request a redirect made, so the DevTools protocol pauses it (Chromium).
    const cdp = await page.context().newCDPSession(page);
    let rewritten = false;
    cdp.on("Fetch.requestPaused", (event: { requestId: string; request: { url: string } }) => {
      const url = new URL(event.request.url);
      if (rewritten || !url.searchParams.has("code")) return void cdp.send("Fetch.continueRequest", { requestId: event.requestId });
      rewritten = true;
      url.searchParams.set("state", `${url.searchParams.get("state")}x`);
      void cdp.send("Fetch.fulfillRequest", { requestId: event.requestId, responseCode: 302, responseHeaders: [{ name: "Location", value: url.toString() }] });
    });
    await cdp.send("Fetch.enable", { patterns: [{ urlPattern: `${SSO_PORTAL_URL}/callback?*`, requestStage: "Request" }] });
    await page.goto(DEEP_LINK);
    await signInAtIdp(page, userName(testInfo, "changed-state"));
    expect(rewritten).toBe(true);
    await expectAuthFailed(page);
    await expectNoSession(page);
  });

  test("a callback replayed after sign-in and logout", async ({ page }, testInfo) => {
    const callback = captureCallback(page);
    await signInFromDeepLink(page, userName(testInfo, "replay"));
    const used = callback();
    await logout(page);

    await page.goto(used);
    await expectAuthFailed(page);
    await expectNoSession(page);
  });

  test("a callback whose code verifier is not the one of the sign-in", async ({ page }, testInfo) => {
    await page.goto(DEEP_LINK);
    await page.waitForURL(atIdp);
    const cookies = await page.context().cookies(SSO_PORTAL_URL);
    // The state cookie holds `state=<state>&<state>=<verifier>`.
    const state = cookies.filter((c) => c.name.startsWith("crib-oidc:"));
    expect(state).toHaveLength(1);
    const params = new URLSearchParams(state[0]!.value);
    const current = params.get("state")!;
    expect(params.get(current)).toMatch(/^[\w-]{43,128}$/);
    params.set(current, "a".repeat(64));
    await page.context().addCookies([{ ...state[0]!, value: params.toString() }]);

    await signInAtIdp(page, userName(testInfo, "verifier"));
    await expectAuthFailed(page);
    await expectNoSession(page);
  });

  for (const mode of ["issuer", "audience", "nonce", "no-nonce", "expired", "signature", "none"] as const) {
    test(`an ID token tampered with (${mode})`, async ({ page }) => {
      await page.goto(DEEP_LINK);
      await signInAtIdp(page, `tamper-${mode}`);
      await expectAuthFailed(page);
      await expectNoSession(page);
    });
  }
});
