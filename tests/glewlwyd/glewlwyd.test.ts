/**
 * The portal against a real OpenID provider packaged by Debian, Glewlwyd 2.7.5 (tests/glewlwyd/rig.ts),
 * driven through its own login page in Chromium: sign-in with the person's name in the header,
 * renewal with rotating refresh tokens (one renewal for parallel requests), a grant revoked at the
 * provider, logout with and without a live portal session (the next sign-in needs the password
 * again), and back-channel logout. Access tokens last 8 s, so renewals come due within the run.
 *
 * Skipped, saying why, where Glewlwyd is not installed (`npm run test:glewlwyd` installs it when it can).
 */
import { chromium, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cacheDb, startPortal, type TestPortal } from "../http/portal";
import { freePort } from "../processes";
import { CHROMIUM, startGlewlwyd, unavailable, USER, type Glewlwyd } from "./rig";

/** What tests/http/portal.ts gives the portal as its client secret; Glewlwyd is told the same. */
const CLIENT_SECRET = "idp-test-client-secret";
const SESSION_COOKIE = "crib-session";

const skipped = unavailable();

describe.skipIf(skipped !== null)(`the portal against Glewlwyd${skipped ? ` (skipped: ${skipped})` : ""}`, () => {
  let glewlwyd: Glewlwyd;
  let portal: TestPortal;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    const portalPort = await freePort();
    const portalUrl = `http://127.0.0.1:${portalPort}`;
    glewlwyd = await startGlewlwyd({ port: await freePort(), portal: portalUrl, clientSecret: CLIENT_SECRET });
    portal = await startPortal({ E2E_OIDC_ISSUER: glewlwyd.issuer, E2E_CATALOG_DB: cacheDb("glewlwyd.db"), E2E_SAMPLE_ITEMS: "50", OIDC_TIMEOUT_MS: "3000" }, portalPort);
    browser = await chromium.launch({ executablePath: CHROMIUM });
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await portal?.stop();
    await glewlwyd?.stop();
  });

  async function newPage(): Promise<Page> {
    const context = await browser.newContext();
    contexts.push(context);
    return context.newPage();
  }

  const onPortal = (url: URL) => url.origin === portal.url;

  /**
   * From a portal page to Glewlwyd and back, signed in: the password when Glewlwyd asks for it,
   * the consent the first time, Continue otherwise. Returns whether the password was asked for.
   */
  async function signIn(page: Page, path = "/crib-search"): Promise<{ passwordAsked: boolean }> {
    await page.goto(`${portal.url}${path}`);
    let passwordAsked = false;
    for (let step = 0; step < 6 && !onPortal(new URL(page.url())); step++) {
      const password = page.locator("#password");
      const grant = page.locator("#grant-profile");
      const next = page.getByRole("button", { name: "Continue" });
      await password.or(grant).or(next).first().waitFor();
      if (await password.isVisible()) {
        passwordAsked = true;
        await page.fill("#username", USER.username);
        await password.fill(USER.password);
        await page.click("#loginbut");
        await password.waitFor({ state: "hidden" });
      } else if (await grant.isVisible()) {
        await grant.check();
        await page.locator("#grant-email").check();
        await page.getByRole("button", { name: "Grant access" }).click();
        await grant.waitFor({ state: "hidden" });
      } else {
        await Promise.all([page.waitForURL(onPortal), next.click()]);
      }
    }
    await page.waitForURL((url) => onPortal(url) && url.pathname === path);
    return { passwordAsked };
  }

  async function portalSession(page: Page): Promise<string> {
    const cookie = (await page.context().cookies(portal.url)).find((c) => c.name === SESSION_COOKIE);
    expect(cookie, "the portal's session cookie").toBeDefined();
    return `${cookie!.name}=${cookie!.value}`;
  }

  /** Whether a portal session cookie still signs anyone in (the API answers 401 without a session). */
  const signedIn = async (cookie: string) => (await fetch(`${portal.url}/api/config`, { headers: { Cookie: cookie } })).status === 200;

  /** The person's refresh tokens for the portal, as Glewlwyd lists them on its profile page. */
  async function refreshTokens(page: Page): Promise<{ token_hash: string; enabled: boolean }[]> {
    const answer = await page.request.get(`${glewlwyd.url}/api/oidc/token?sort=issued_at&desc`);
    expect(answer.status()).toBe(200);
    return ((await answer.json()) as { token_hash: string; enabled: boolean; client_id: string }[]).filter((t) => t.client_id === "crib-search");
  }

  /** Revokes the person's refresh tokens on Glewlwyd's profile page (what an administrator or the person does there). */
  async function revokeGrants(page: Page): Promise<void> {
    for (const token of await refreshTokens(page)) {
      if (token.enabled) expect((await page.request.delete(`${glewlwyd.url}/api/oidc/token/${token.token_hash}`)).status()).toBe(200);
    }
  }

  /** The portal's log entries so far (one JSON object a line). */
  const logEntries = () =>
    portal
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  const userName = (page: Page) => page.locator("header.site-header .user-name").textContent();

  /** Logout from the header: to Glewlwyd's end of session and back to the portal's signed-out page. */
  async function logout(page: Page): Promise<void> {
    await page.getByRole("button", { name: "Logout" }).click();
    // Glewlwyd asks the person to confirm: "The client wishes you to close the current session".
    await page.waitForURL((url) => url.origin === glewlwyd.url);
    await page.locator("h3", { hasText: "End session" }).waitFor();
    await page.locator("button.btn-danger", { hasText: "Logout" }).first().click();
    await page.waitForURL((url) => onPortal(url) && url.pathname === "/signed-out" && url.searchParams.has("state"));
    await page.getByRole("heading", { name: "You have signed out" }).waitFor();
  }

  it("signs in through Glewlwyd's login page and shows the person's name, never the subject", async () => {
    const page = await newPage();
    expect((await signIn(page)).passwordAsked).toBe(true);
    expect(await userName(page)).toBe(USER.name);
  });

  it("renews with rotating refresh tokens once for parallel requests, keeping the session", async () => {
    const page = await newPage();
    await signIn(page);
    const cookie = await portalSession(page);
    // Glewlwyd lists the person's tokens of every sign-in: the earlier tests' too.
    const before = new Set((await refreshTokens(page)).map((t) => t.token_hash));
    // Six requests at a time until a renewal shows at the provider: every one stays signed in.
    await expect
      .poll(
        async () => {
          const answers = await Promise.all(Array.from({ length: 6 }, () => signedIn(cookie)));
          expect(answers).toEqual(Array(6).fill(true));
          return (await refreshTokens(page)).filter((t) => !before.has(t.token_hash)).length;
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);
    // One renewal: one new refresh token, however many requests found the tokens due.
    expect((await refreshTokens(page)).filter((t) => !before.has(t.token_hash))).toHaveLength(1);
    expect(await signedIn(cookie)).toBe(true);
  });

  it("ends the session when the grant is revoked at the provider, and says why in the log", async () => {
    const page = await newPage();
    await signIn(page);
    const cookie = await portalSession(page);
    await revokeGrants(page);
    await expect.poll(() => signedIn(cookie), { timeout: 30_000 }).toBe(false);
    // Glewlwyd refuses with a bare 400 and no body: the log says so.
    expect(logEntries().find((e) => e.msg === "Session ended: the identity provider refused to renew its tokens")).toMatchObject({ providerStatus: 400, providerError: "http_400" });
    // The next page goes through sign-in (Glewlwyd's own session still stands: one Continue).
    await signIn(page);
    expect(await userName(page)).toBe(USER.name);
  });

  it("logout ends the session at Glewlwyd too and comes back to the signed-out page; the next sign-in needs the password", async () => {
    const page = await newPage();
    await signIn(page);
    await logout(page);
    expect((await signIn(page)).passwordAsked).toBe(true);
  });

  it("logout from a page whose portal session has ended still ends the session at Glewlwyd", async () => {
    const page = await newPage();
    await signIn(page);
    const cookie = await portalSession(page);
    // The session ends while the page stays open: here the grant is revoked (idle time does the same).
    await revokeGrants(page);
    await expect.poll(() => signedIn(cookie), { timeout: 30_000 }).toBe(false);
    // The ended session's ID token names it to Glewlwyd, which (2.7.5) shows a blank page without one.
    await logout(page);
    expect((await signIn(page)).passwordAsked).toBe(true);
  });

  it("back-channel logout: Glewlwyd's end of session ends every portal session of that provider session", async () => {
    const page = await newPage();
    await signIn(page);
    const first = await portalSession(page);
    // A second portal session in the same Glewlwyd session (another tab that signed in again).
    await page.context().clearCookies({ name: SESSION_COOKIE });
    expect((await signIn(page)).passwordAsked).toBe(false);
    expect(await signedIn(first)).toBe(true);
    await logout(page);
    // Told by Glewlwyd, server to server, the portal ends the first session too.
    await expect.poll(() => signedIn(first), { timeout: 15_000 }).toBe(false);
    expect(logEntries().some((e) => e.msg === "Back-channel logout" && Number(e.sessionsEnded) >= 1)).toBe(true);
    expect(logEntries().filter((e) => e.msg === "Back-channel logout refused")).toEqual([]);
  });
});
