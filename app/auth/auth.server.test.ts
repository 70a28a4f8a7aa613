import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Auth } from "./auth.server";
import type { OidcClient } from "./oidc.server";
import { SqliteSessionStore, type SessionTokens } from "./session-store.server";
import { userFromClaims } from "./user";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function setup(options: { refresh?: (tokens: SessionTokens) => Promise<SessionTokens> } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crib-auth-"));
  dirs.push(dir);
  let t = Date.now();
  const clock = { now: () => t, advance: (ms: number) => (t += ms) };
  const refreshed: SessionTokens[] = [];
  const oidc = {
    refresh: async (tokens: SessionTokens) => {
      refreshed.push(tokens);
      if (!options.refresh) throw new Error("refused");
      return options.refresh(tokens);
    },
  } as unknown as OidcClient;
  const store = new SqliteSessionStore(path.join(dir, "sessions.db"));
  const auth = new Auth(oidc, store, { appUrl: "http://portal.test", sessionSecret: "a-test-session-secret", secureCookies: false, now: clock.now });
  return { auth, clock, store, refreshed };
}

const user = userFromClaims({ sub: "u1", email: "pat@example.test", given_name: "Pat", family_name: "Doe" });
const tokens = (expiresAt: number): SessionTokens => ({ accessToken: "at", refreshToken: "rt", idToken: "id.token.sig", expiresAt });

/** A request carrying the cookies of Set-Cookie headers. */
function withCookies(setCookies: string[]): Request {
  const cookie = setCookies.map((c) => c.split(";")[0]).join("; ");
  return new Request("http://portal.test/crib-search", { headers: { Cookie: cookie } });
}

describe("server-side sessions", () => {
  it("sign in with a random id in a signed cookie that holds nothing else", async () => {
    const { auth, clock } = setup();
    const cookies = await auth.begin(user, tokens(clock.now() + 3_600_000), new Request("http://portal.test/"));
    expect(cookies[0]).toMatch(/^crib-session=/);
    expect(cookies[0]).toMatch(/HttpOnly/);
    expect(cookies[0]).toMatch(/SameSite=Lax/);
    expect(cookies[0]).not.toContain("pat@example.test");
    expect((await auth.user(withCookies(cookies)))?.name).toBe("Pat Doe");
  });

  it("uses __Host- cookies that are Secure on https", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crib-auth-"));
    dirs.push(dir);
    const auth = new Auth({} as OidcClient, new SqliteSessionStore(path.join(dir, "s.db")), { appUrl: "https://portal.test", sessionSecret: "a-test-session-secret", secureCookies: true });
    const [cookie] = await auth.begin(user, tokens(Date.now() + 3_600_000), new Request("https://portal.test/"));
    expect(cookie).toMatch(/^__Host-crib-session=/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/Path=\//);
  });

  it("give a new id at every sign-in and drop the one the browser had (no fixation)", async () => {
    const { auth, clock } = setup();
    const first = await auth.begin(user, tokens(clock.now() + 3_600_000), new Request("http://portal.test/"));
    const second = await auth.begin(user, tokens(clock.now() + 3_600_000), withCookies(first));
    expect(second[0]).not.toBe(first[0]);
    expect(await auth.user(withCookies(first))).toBeNull();
    expect(await auth.user(withCookies(second))).not.toBeNull();
  });

  it("end at logout for good: the old cookie signs nobody in again", async () => {
    const { auth, clock } = setup();
    const cookies = await auth.begin(user, tokens(clock.now() + 3_600_000), new Request("http://portal.test/"));
    const ended = await auth.end(withCookies(cookies));
    expect(ended.idToken).toBe("id.token.sig");
    expect(ended.setCookies[0]).toMatch(/Max-Age=0/);
    expect(await auth.user(withCookies(cookies))).toBeNull();
  });

  it("refuse a cookie that was not signed with the secret", async () => {
    const { auth } = setup();
    expect(await auth.user(new Request("http://portal.test/", { headers: { Cookie: "crib-session=forged-id-forged-id-forged" } }))).toBeNull();
  });

  it("end after an hour without a request, and twelve hours after sign-in whatever happens", async () => {
    const { auth, clock } = setup({ refresh: async () => tokens(clock.now() + 3_600_000) });
    const idle = await auth.begin(user, tokens(clock.now() + 24 * 3_600_000), new Request("http://portal.test/"));
    clock.advance(61 * 60_000);
    expect(await auth.user(withCookies(idle))).toBeNull();

    const busy = await auth.begin(user, tokens(clock.now() + 24 * 3_600_000), new Request("http://portal.test/"));
    for (let minutes = 0; minutes < 12 * 60 - 10; minutes += 10) {
      clock.advance(10 * 60_000);
      expect(await auth.user(withCookies(busy)), `after ${minutes + 10} minutes`).not.toBeNull();
    }
    clock.advance(20 * 60_000);
    expect(await auth.user(withCookies(busy))).toBeNull();
  });

  it("renew the tokens 60 s before they expire, and keep the refresh token the provider did not replace", async () => {
    const { auth, clock, refreshed } = setup({ refresh: async () => ({ ...tokens(clock.now() + 3_600_000), accessToken: "at2", refreshToken: "rt" }) });
    const cookies = await auth.begin(user, tokens(clock.now() + 120_000), new Request("http://portal.test/"));
    clock.advance(30_000);
    await auth.session(withCookies(cookies));
    expect(refreshed).toHaveLength(0);
    clock.advance(31_000);
    const session = await auth.session(withCookies(cookies));
    expect(refreshed).toHaveLength(1);
    expect(session?.record.tokens.accessToken).toBe("at2");
  });

  it("end when the tokens cannot be renewed", async () => {
    const { auth, clock, refreshed } = setup();
    const cookies = await auth.begin(user, tokens(clock.now() + 30_000), new Request("http://portal.test/"));
    expect(await auth.user(withCookies(cookies))).toBeNull();
    expect(refreshed).toHaveLength(1);
    expect(await auth.user(withCookies(cookies))).toBeNull();
  });
});

describe("userFromClaims", () => {
  it("takes the name, else given plus family name, else the email or the id", () => {
    expect(userFromClaims({ sub: "1", name: "Pat Doe" }).name).toBe("Pat Doe");
    expect(userFromClaims({ sub: "1", given_name: "Pat", family_name: "Doe" })).toMatchObject({ name: "Pat Doe", firstName: "Pat", lastName: "Doe" });
    expect(userFromClaims({ sub: "1", email: "p@x.test" }).name).toBe("p@x.test");
    expect(userFromClaims({ sub: "1" }).name).toBe("1");
    expect(userFromClaims({ sub: "1", groups: ["a", 2, "b"], roles: "admin" })).toMatchObject({ groups: ["a", "b"], roles: ["admin"] });
  });
});

describe("back-channel logout in the SQLite store", () => {
  const tokens: SessionTokens = { accessToken: "a", refreshToken: null, idToken: "i", expiresAt: Date.now() + 3_600_000 };
  const record = (user: string, providerSid?: string) => ({
    user: userFromClaims({ sub: user }),
    tokens,
    createdAt: Date.now(),
    lastSeenAt: Date.now(),
    ...(providerSid ? { providerSid } : {}),
  });

  it("ends a user's sessions, or one provider session's, and no one else's", async () => {
    const { store } = setup();
    const later = Date.now() + 3_600_000;
    await store.set("pat-session-1-xxxxxxxxxxxx", record("pat", "s1"), later);
    await store.set("pat-session-2-xxxxxxxxxxxx", record("pat", "s2"), later);
    await store.set("pat-session-3-xxxxxxxxxxxx", record("pat"), later);
    await store.set("sam-session-1-xxxxxxxxxxxx", record("sam", "s3"), later);
    // One provider session of pat's: that one, and the one whose provider session is unknown.
    expect(await store.deleteForUser({ userId: "pat", providerSid: "s1" })).toBe(2);
    expect(await store.get("pat-session-2-xxxxxxxxxxxx")).not.toBeNull();
    expect(await store.deleteForUser({ providerSid: "s3" })).toBe(1);
    expect(await store.deleteForUser({ userId: "pat" })).toBe(1);
    expect(await store.deleteForUser({})).toBe(0);
  });
});
