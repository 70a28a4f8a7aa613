/**
 * Sign-in over real HTTP against providers that fail the ways the audit found (issue 28): one
 * whose endpoints hang, and one that rotates refresh tokens, behind a portal of two worker
 * processes that share its sessions. The browser journeys are tests/e2e/sign-in.spec.ts; these
 * are about statuses, pages and sessions, which need no browser.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CookieJar, signInAtIdp } from "../idp/browserless";
import { DISCOVERY_PATH, startIdp, type TestIdp } from "../idp/server";
import { freePort } from "../processes";
import { cacheDb, startPortal, type TestPortal } from "./portal";

const NOT_ANSWERING = "The sign-in service is not answering";
const TOKEN_TTL_S = 2;

/**
 * Runs `round` again and again until the session's first tokens have come due for renewal and
 * their renewal has been made (or tried): two of the tokens' lifetimes after sign-in.
 */
async function throughRenewal(signedInAt: number, round: () => Promise<void>): Promise<void> {
  do await round();
  while (Date.now() < signedInAt + 2 * TOKEN_TTL_S * 1000);
}

describe("a portal of two workers whose provider hangs or rotates refresh tokens", () => {
  let idp: TestIdp;
  let portal: TestPortal;
  const at = (path: string) => `${portal.url}${path}`;

  beforeAll(async () => {
    const port = await freePort();
    // Access tokens of 2 s: due for renewal (a quarter of their life early) 1.5 s after they are issued.
    idp = await startIdp({ port: await freePort(), portals: [`http://127.0.0.1:${port}`], accessTokenTtl: TOKEN_TTL_S, rotateRefreshTokens: true });
    portal = await startPortal(
      { E2E_OIDC_ISSUER: idp.issuer, E2E_CATALOG_DB: cacheDb("sign-in.db"), E2E_SAMPLE_ITEMS: "50", OIDC_TIMEOUT_MS: "1000", WEB_CONCURRENCY: "2" },
      port,
    );
  }, 150_000);

  afterAll(async () => {
    await portal?.stop();
    await idp?.close();
  });

  /** From /login to the provider and back: the portal's cookies and the callback URL, not yet visited. */
  async function toCallback(login: string): Promise<{ jar: CookieJar; callback: string }> {
    const jar = new CookieJar();
    const start = await fetch(at("/login?returnTo=/crib-search"), { redirect: "manual" });
    expect(start.status).toBe(302);
    jar.take(start);
    const callback = await signInAtIdp(start.headers.get("location")!, login, (url) => url.origin === portal.url);
    return { jar, callback };
  }

  async function signIn(login: string): Promise<string> {
    const { jar, callback } = await toCallback(login);
    const back = await fetch(callback, { headers: { Cookie: jar.header() }, redirect: "manual" });
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe("/crib-search");
    jar.take(back);
    return jar.header();
  }

  it("/login says the sign-in service is not answering when discovery hangs", async () => {
    idp.hang(DISCOVERY_PATH);
    try {
      const response = await fetch(at("/login?returnTo=/crib-search"), { redirect: "manual" });
      expect(response.status).toBe(503);
      const html = await response.text();
      // Spec §8's text, then why.
      expect(html).toContain("Failed to initiate login. Please try again.");
      expect(html).toContain(NOT_ANSWERING);
    } finally {
      idp.answer(DISCOVERY_PATH);
    }
  });

  it("/callback says the sign-in service is not answering when the token endpoint hangs, and starts no session", async () => {
    const { jar, callback } = await toCallback("http-hang-callback");
    idp.hang("/token");
    try {
      const response = await fetch(callback, { headers: { Cookie: jar.header() }, redirect: "manual" });
      expect(response.status).toBe(503);
      const html = await response.text();
      expect(html).toContain("Authentication Failed");
      expect(html).toContain("Login callback failed. Please try logging in again.");
      expect(html).toContain(NOT_ANSWERING);
      expect(response.headers.getSetCookie().some((c) => c.startsWith("crib-session=") && !/Max-Age=0/i.test(c))).toBe(false);
    } finally {
      idp.answer("/token");
    }
  });

  it("6 parallel requests at renewal all answer, and the session goes on", async () => {
    const signedInAt = Date.now();
    const cookie = await signIn("http-rotation");
    // A refresh token spent twice would revoke the grant (rotation), and the session would end.
    await throughRenewal(signedInAt, async () => {
      const statuses = await Promise.all(Array.from({ length: 6 }, () => fetch(at("/crib-search"), { headers: { Cookie: cookie }, redirect: "manual" }).then((r) => r.status)));
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    });
    expect((await fetch(at("/api/config"), { headers: { Cookie: cookie } })).status).toBe(200);
  });

  it("a page whose renewal the provider does not answer is answered, and the session goes on", async () => {
    const signedInAt = Date.now();
    const cookie = await signIn("http-hang-renewal");
    idp.hang("/token");
    try {
      await throughRenewal(signedInAt, async () => {
        const page = await fetch(at("/crib-search"), { headers: { Cookie: cookie }, redirect: "manual" });
        expect(page.status).toBe(200);
      });
      expect((await fetch(at("/api/config"), { headers: { Cookie: cookie } })).status).toBe(200);
    } finally {
      idp.answer("/token");
    }
  });
});
