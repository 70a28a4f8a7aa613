/**
 * Sign-in and sessions against a real OpenID Provider (tests/idp/server.ts, oidc-provider) in the
 * ways real providers differ and fail: one whose endpoints hang, one that rotates refresh tokens,
 * one that issues no refresh token, and one that gives a refresh token only for `offline_access`.
 * The portal's parts run in this process (OidcClient, Auth, the SQLite session store); several
 * Auth instances on one store file stand for several worker processes.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Auth } from "~/auth/auth.server";
import { IdpUnavailableError, NOT_ANSWERING, OidcClient } from "~/auth/oidc.server";
import { SqliteSessionStore } from "~/auth/session-store.server";
import { signInAtIdp } from "../idp/browserless";
import { CLIENT_ID, CLIENT_SECRET, DISCOVERY_PATH, startIdp, type IdpOptions, type TestIdp } from "../idp/server";
import { freePort } from "../processes";

const PORTAL = "http://portal.test";
/** A portal clock 25 s ahead: the tests' 30 s access tokens are due for renewal (7.5 s early) at once. */
const AHEAD = () => Date.now() + 25_000;
/** Short, so that a hanging provider costs the tests little; the portal's default is 10 s. The
 * tests' own limit (30 s) is only the guard against a portal that hangs with the provider: they
 * assert what the portal does (errors, calls to the provider), never how long it took. */
const TIMEOUT_MS = 800;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function idpWith(options: Omit<IdpOptions, "port" | "portals">): Promise<TestIdp> {
  return startIdp({ port: await freePort(), portals: [PORTAL], ...options });
}

/** A provider of the describe block's own, started before its tests and closed after them. */
function useIdp(options: Omit<IdpOptions, "port" | "portals">): () => TestIdp {
  let idp: TestIdp | undefined;
  beforeAll(async () => {
    idp = await idpWith(options);
  });
  afterAll(async () => {
    await idp?.close();
  });
  return () => idp!;
}

/** A portal process: its OIDC client and sessions, on `file` (a new store file unless given). */
function portalOf(idp: TestIdp, options: { file?: string; now?: () => number } = {}) {
  let file = options.file;
  if (!file) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crib-sign-in-"));
    dirs.push(dir);
    file = path.join(dir, "sessions.db");
  }
  const oidc = new OidcClient({
    issuer: idp.issuer,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUri: `${PORTAL}/callback`,
    nonceSecret: "a-session-secret-for-the-tests-only",
    stateCookie: "crib-oidc",
    secureCookies: false,
    timeoutMs: TIMEOUT_MS,
  });
  const auth = new Auth(oidc, new SqliteSessionStore(file), {
    appUrl: PORTAL,
    sessionSecret: "a-session-secret-for-the-tests-only",
    secureCookies: false,
    ...(options.now ? { now: options.now } : {}),
  });
  return { oidc, auth, file };
}

const cookiesOf = (setCookies: string[]) => setCookies.map((c) => c.split(";")[0]).join("; ");
const page = (cookie: string) => new Request(`${PORTAL}/crib-search`, { headers: { Cookie: cookie } });

/** The redirect to the provider and the state cookie it sets. */
async function startSignIn(oidc: OidcClient): Promise<{ location: URL; stateCookie: string }> {
  const toProvider = await oidc.startSignIn(new Request(`${PORTAL}/login`));
  return { location: new URL(toProvider.headers.get("location")!), stateCookie: cookiesOf(toProvider.headers.getSetCookie()) };
}

/** A whole sign-in as `login`: the session cookie of the portal. */
async function signIn(portal: ReturnType<typeof portalOf>, login: string): Promise<string> {
  const { location, stateCookie } = await startSignIn(portal.oidc);
  const callback = await signInAtIdp(location.toString(), login, (url) => url.origin === PORTAL);
  const { user, tokens } = await portal.oidc.finishSignIn(new Request(callback, { headers: { Cookie: stateCookie } }));
  return cookiesOf(await portal.auth.begin(user, tokens, new Request(callback)));
}

async function storedTokens(portal: ReturnType<typeof portalOf>, cookie: string) {
  return (await portal.auth.session(page(cookie)))?.record.tokens;
}

describe("a provider that stops answering", { timeout: 30_000 }, () => {
  let idp: TestIdp;
  afterEach(async () => {
    await idp?.close();
  });

  it.each([
    ["token", "/token"],
    ["userinfo", "/me"],
    ["JWKS", "/jwks"],
  ])("a sign-in whose %s call hangs fails within the timeout, saying the service is not answering", async (_what, hungPath) => {
    idp = await idpWith({});
    const portal = portalOf(idp);
    const { location, stateCookie } = await startSignIn(portal.oidc);
    const callback = await signInAtIdp(location.toString(), `hang-${hungPath.slice(1)}`, (url) => url.origin === PORTAL);
    idp.hang(hungPath);
    const failure = await portal.oidc.finishSignIn(new Request(callback, { headers: { Cookie: stateCookie } })).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(IdpUnavailableError);
    expect((failure as Error).message).toBe(NOT_ANSWERING);
    expect(NOT_ANSWERING).toMatch(/^The sign-in service is not answering/);
  });

  it("a sign-in whose discovery hangs fails within the timeout, saying the service is not answering", async () => {
    idp = await idpWith({});
    idp.hang(DISCOVERY_PATH);
    const portal = portalOf(idp);
    await expect(portal.oidc.startSignIn(new Request(`${PORTAL}/login`))).rejects.toThrow(NOT_ANSWERING);
    await expect(portal.oidc.metadata()).rejects.toBeInstanceOf(IdpUnavailableError);
  });

  it("a session due for renewal while the token endpoint hangs goes on, and the next page does not wait again", async () => {
    // Access tokens of 30 s, on a portal whose clock is 25 s ahead: due for renewal (a quarter of their life early).
    idp = await idpWith({ accessTokenTtl: 30 });
    const portal = portalOf(idp, { now: AHEAD });
    const cookie = await signIn(portal, "hang-renewal");
    const signedIn = idp.requestsTo("/token");
    idp.hang("/token");
    const session = await portal.auth.session(page(cookie));
    expect(session?.record.user.id).toBe("hang-renewal");
    expect(session?.record.renewRetryAt).toBeGreaterThan(AHEAD());
    const renewals = idp.requestsTo("/token");
    expect(renewals).toBeGreaterThan(signedIn);
    // Backed off: answered from the store, with no call to the provider.
    expect(await portal.auth.user(page(cookie))).not.toBeNull();
    expect(idp.requestsTo("/token")).toBe(renewals);
  });
});

describe("a provider that rotates refresh tokens", { timeout: 30_000 }, () => {
  const idp = useIdp({ accessTokenTtl: 30, rotateRefreshTokens: true });

  it("6 parallel requests at renewal all keep the session, which is renewed once", async () => {
    const portal = portalOf(idp(), { now: AHEAD });
    const cookie = await signIn(portal, "rotation-one-process");
    const signedIn = (await new SqliteSessionStore(portal.file).get(cookieId(cookie)))!.tokens;
    const sessions = await Promise.all(Array.from({ length: 6 }, () => portal.auth.session(page(cookie))));
    expect(sessions.map((s) => s !== null)).toEqual(Array(6).fill(true));
    const refreshTokens = new Set(sessions.map((s) => s!.record.tokens.refreshToken));
    expect(refreshTokens.size).toBe(1);
    expect(refreshTokens.has(signedIn.refreshToken)).toBe(false);
  });

  it("6 parallel requests at renewal in 3 worker processes all keep the session, renewed once", async () => {
    const one = portalOf(idp(), { now: AHEAD });
    const workers = [one, portalOf(idp(), { file: one.file, now: AHEAD }), portalOf(idp(), { file: one.file, now: AHEAD })];
    const cookie = await signIn(one, "rotation-workers");
    const signedIn = (await new SqliteSessionStore(one.file).get(cookieId(cookie)))!.tokens;
    const sessions = await Promise.all(workers.flatMap((w) => [w.auth.session(page(cookie)), w.auth.session(page(cookie))]));
    expect(sessions.map((s) => s !== null)).toEqual(Array(6).fill(true));
    // Every request saw the one renewal's result: one new refresh token, not the sign-in's.
    const refreshTokens = new Set(sessions.map((s) => s!.record.tokens.refreshToken));
    expect(refreshTokens.size).toBe(1);
    expect(refreshTokens.has(signedIn.refreshToken)).toBe(false);
    // The grant is alive: the next renewal, with the rotated token, is accepted.
    const later = portalOf(idp(), { file: one.file, now: () => Date.now() + 50_000 });
    expect(await later.auth.user(page(cookie))).not.toBeNull();
  });
});

/** The session id inside a session cookie (signed by the cookie's secret). */
function cookieId(cookie: string): string {
  const value = decodeURIComponent(cookie.split("=")[1]!);
  return JSON.parse(Buffer.from(value.slice(0, value.lastIndexOf(".")), "base64").toString("utf8")) as string;
}

describe("a provider that issues no refresh token", { timeout: 30_000 }, () => {
  const idp = useIdp({ accessTokenTtl: 30, refreshTokens: "never" });

  it("is not asked for offline_access, which it does not offer", async () => {
    const { location } = await startSignIn(portalOf(idp()).oidc);
    expect(location.searchParams.get("scope")!.split(" ")).toEqual(["openid", "profile", "email"]);
  });

  it("sessions last the portal's 12 hours (used within every hour), not the access token's minute", async () => {
    let offset = 0;
    const portal = portalOf(idp(), { now: () => Date.now() + offset });
    const cookie = await signIn(portal, "no-refresh-token");
    expect((await storedTokens(portal, cookie))?.refreshToken).toBeNull();
    for (let minutes = 30; minutes < 12 * 60; minutes += 30) {
      offset = minutes * 60_000;
      expect(await portal.auth.user(page(cookie)), `after ${minutes} minutes`).not.toBeNull();
    }
    offset = 12 * 60 * 60_000 + 1;
    expect(await portal.auth.user(page(cookie))).toBeNull();
  });
});

describe("a provider that gives a refresh token only for offline_access (as Okta)", { timeout: 30_000 }, () => {
  const idp = useIdp({ accessTokenTtl: 30, refreshTokens: "offline_access" });

  it("is asked for offline_access, and so gives one, with which the session is renewed", async () => {
    const portal = portalOf(idp());
    const { location } = await startSignIn(portal.oidc);
    expect(location.searchParams.get("scope")!.split(" ")).toContain("offline_access");
    const cookie = await signIn(portal, "offline-access");
    const renewed = await storedTokens(portal, cookie);
    expect(renewed?.refreshToken).toBeTruthy();
  });
});

describe("a grant revoked at the provider", { timeout: 30_000 }, () => {
  const idp = useIdp({ accessTokenTtl: 30, refreshTokens: "always" });

  it("ends the session at the next renewal, and logout still names it to the provider", async () => {
    const portal = portalOf(idp(), { now: AHEAD });
    const signedIn = portalOf(idp(), { file: portal.file });
    const cookie = await signIn(signedIn, "revoked-grant");
    const tokens = (await new SqliteSessionStore(portal.file).get(cookieId(cookie)))!.tokens;
    // Revoked at the provider (an administrator, a password change): the portal is not told.
    expect(await portal.oidc.revoke(tokens.refreshToken!)).toBe(true);
    expect(await portal.auth.user(page(cookie))).toBeNull();
    // Ended for good: no second renewal, however often the page is asked for.
    expect(await portal.auth.user(page(cookie))).toBeNull();
    const ended = await portal.auth.end(page(cookie));
    expect(ended.idToken).toBe(tokens.idToken);
    const logout = new URL((await portal.oidc.endSessionUrl({ idToken: ended.idToken, postLogoutRedirectUri: `${PORTAL}/signed-out`, state: "st" }))!);
    expect(logout.searchParams.get("id_token_hint")).toBe(tokens.idToken);
  });

  it("a live session's refresh token is revoked at logout, so it renews nothing afterwards", async () => {
    const portal = portalOf(idp());
    const cookie = await signIn(portal, "revoke-at-logout");
    const { refreshToken } = await portal.auth.end(page(cookie));
    expect(refreshToken).toBeTruthy();
    expect(await portal.oidc.revoke(refreshToken!)).toBe(true);
    await expect(portal.oidc.refresh({ accessToken: "", refreshToken, idToken: "", expiresAt: 0 })).rejects.toMatchObject({ code: "invalid_grant" });
  });
});
