import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Auth } from "./auth.server";
import { IdpUnavailableError, TokenRefusedError, type OidcClient } from "./oidc.server";
import { SqliteSessionStore, type SessionTokens } from "./session-store.server";
import { userFromClaims } from "./user";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function setup(options: { refresh?: (tokens: SessionTokens) => Promise<SessionTokens>; file?: string } = {}) {
  let file = options.file;
  if (!file) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crib-auth-"));
    dirs.push(dir);
    file = path.join(dir, "sessions.db");
  }
  let t = Date.now();
  const clock = { now: () => t, advance: (ms: number) => (t += ms) };
  const refreshed: SessionTokens[] = [];
  const oidc = {
    timeoutMs: 2_000,
    revoke: async () => true,
    refresh: async (tokens: SessionTokens) => {
      refreshed.push(tokens);
      if (!options.refresh) throw new TokenRefusedError("invalid_grant");
      return options.refresh(tokens);
    },
  } as unknown as OidcClient;
  const store = new SqliteSessionStore(file);
  const auth = new Auth(oidc, store, { appUrl: "http://portal.test", sessionSecret: "a-test-session-secret", secureCookies: false, now: clock.now });
  return { auth, clock, store, refreshed, file };
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

  it("end when the provider refuses to renew the tokens", async () => {
    const { auth, clock, refreshed } = setup();
    const cookies = await auth.begin(user, tokens(clock.now() + 30_000), new Request("http://portal.test/"));
    expect(await auth.user(withCookies(cookies))).toBeNull();
    expect(refreshed).toHaveLength(1);
    expect(await auth.user(withCookies(cookies))).toBeNull();
  });
});

describe("a request's identity (the load context's, docs/decisions/046)", () => {
  it("looks the session up once however many of the request's loaders ask, and again once forgotten", async () => {
    const { auth, clock, store } = setup();
    const cookies = await auth.begin(user, tokens(clock.now() + 3_600_000), new Request("http://portal.test/"));
    const identity = auth.identityOf(withCookies(cookies).headers.get("Cookie"));
    const reads = vi.spyOn(store, "get");
    const [session, again, person] = await Promise.all([identity.session(), identity.session(), identity.user()]);
    expect(again).toBe(session);
    expect(person?.name).toBe("Pat Doe");
    expect(reads).toHaveBeenCalledTimes(1);
    identity.forget();
    expect((await identity.user())?.name).toBe("Pat Doe");
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it("asks nothing of the store until asked, and is nobody without the session cookie", async () => {
    const { auth, store } = setup();
    const reads = vi.spyOn(store, "get");
    const identity = auth.identityOf("theme=dark");
    expect(reads).not.toHaveBeenCalled();
    expect(await identity.user()).toBeNull();
    expect(await auth.identityOf(null).session()).toBeNull();
    expect(reads).not.toHaveBeenCalled();
  });
});

describe("sessions against the provider's tokens", () => {
  it("last the portal's own lifetime when the provider gave no refresh token, whatever the access token's", async () => {
    const { auth, clock, refreshed } = setup();
    const cookies = await auth.begin(user, { ...tokens(clock.now() + 3_600_000), refreshToken: null }, new Request("http://portal.test/"));
    // Past the access token's expiry (59 min with the early renewal), used every 10 minutes.
    for (let minutes = 10; minutes <= 180; minutes += 10) {
      clock.advance(10 * 60_000);
      expect(await auth.user(withCookies(cookies)), `after ${minutes} minutes`).not.toBeNull();
    }
    expect(refreshed).toHaveLength(0);
    // …and still an hour unused ends it.
    clock.advance(61 * 60_000);
    expect(await auth.user(withCookies(cookies))).toBeNull();
  });

  it("go on when the provider does not answer a renewal, and try again later rather than at every request", async () => {
    let answering = false;
    const { auth, clock, refreshed } = setup({
      refresh: async () => {
        if (!answering) throw new IdpUnavailableError(new Error("timed out"));
        return { ...tokens(clock.now() + 3_600_000), accessToken: "at2" };
      },
    });
    const cookies = await auth.begin(user, tokens(clock.now() + 30_000), new Request("http://portal.test/"));
    expect(await auth.user(withCookies(cookies))).not.toBeNull();
    expect(refreshed).toHaveLength(1);
    clock.advance(60_000);
    expect(await auth.user(withCookies(cookies))).not.toBeNull();
    expect(refreshed).toHaveLength(1);
    // Five minutes later, with the provider back, the renewal is made.
    answering = true;
    clock.advance(5 * 60_000);
    const session = await auth.session(withCookies(cookies));
    expect(refreshed).toHaveLength(2);
    expect(session?.record.tokens.accessToken).toBe("at2");
  });

  /** A provider that rotates refresh tokens: each is accepted once, and a spent one revokes the grant. */
  function rotating(clock: { now(): number }, delayMs: number) {
    let live = "rt";
    let revoked = false;
    let n = 0;
    return async (current: SessionTokens): Promise<SessionTokens> => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (revoked || current.refreshToken !== live) {
        revoked = true;
        throw new TokenRefusedError("invalid_grant");
      }
      live = `rt${++n}`;
      return { accessToken: `at${n}`, refreshToken: live, idToken: current.idToken, expiresAt: clock.now() + 3_600_000 };
    };
  }

  it("renew once for parallel requests of one process, which all use the result", async () => {
    let provider: (current: SessionTokens) => Promise<SessionTokens> = async () => Promise.reject(new Error("not yet"));
    const { auth, clock, refreshed } = setup({ refresh: (current) => provider(current) });
    provider = rotating(clock, 30);
    const cookies = await auth.begin(user, tokens(clock.now() + 30_000), new Request("http://portal.test/"));
    const sessions = await Promise.all(Array.from({ length: 6 }, () => auth.session(withCookies(cookies))));
    expect(sessions.map((session) => session?.record.tokens.accessToken)).toEqual(Array(6).fill("at1"));
    expect(refreshed).toHaveLength(1);
  });

  it("renew once for parallel requests of several processes on one store, which all use the result", async () => {
    const first = setup();
    const provider = rotating(first.clock, 100);
    const processes = [0, 1, 2].map(() => setup({ refresh: provider, file: first.file }));
    const cookies = await processes[0]!.auth.begin(user, tokens(Date.now() + 30_000), new Request("http://portal.test/"));
    const sessions = await Promise.all(processes.flatMap((p) => [p.auth.session(withCookies(cookies)), p.auth.session(withCookies(cookies))]));
    expect(sessions.every((session) => session !== null)).toBe(true);
    expect(new Set(sessions.map((session) => session!.record.tokens.refreshToken))).toEqual(new Set(["rt1"]));
    expect(processes.reduce((sum, p) => sum + p.refreshed.length, 0)).toBe(1);
    // The session goes on with the rotated token.
    expect(await processes[2]!.auth.user(withCookies(cookies))).not.toBeNull();
  });
});

describe("SqliteSessionStore.claimRenewal", () => {
  function store() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crib-auth-"));
    dirs.push(dir);
    return { a: new SqliteSessionStore(path.join(dir, "s.db")), b: new SqliteSessionStore(path.join(dir, "s.db")) };
  }
  const now = Date.now();
  const record = { user, tokens: tokens(now + 10_000), createdAt: now, lastSeenAt: now };

  it("gives the claim to one caller of any process until it runs out or the session is written", async () => {
    const { a, b } = store();
    await a.set("session-id-0123456789", record, now + 3_600_000);
    expect(await a.claimRenewal("session-id-0123456789", "rt", now + 1_000, now)).toEqual(record);
    expect(await b.claimRenewal("session-id-0123456789", "rt", now + 1_000, now)).toBeNull();
    expect(await b.claimRenewal("session-id-0123456789", "rt", now + 2_000, now + 999)).toBeNull();
    // Run out: free again.
    expect(await b.claimRenewal("session-id-0123456789", "rt", now + 3_000, now + 1_000)).not.toBeNull();
    // Written: free again.
    await b.set("session-id-0123456789", record, now + 3_600_000);
    expect(await a.claimRenewal("session-id-0123456789", "rt", now + 4_000, now + 1_001)).not.toBeNull();
  });

  it("refuses a refresh token the session no longer holds, and a session that is gone", async () => {
    const { a } = store();
    await a.set("session-id-0123456789", record, now + 3_600_000);
    expect(await a.claimRenewal("session-id-0123456789", "spent", now + 1_000, now)).toBeNull();
    expect(await a.claimRenewal("no-such-session-0123456789", "rt", now + 1_000, now)).toBeNull();
    expect(await a.claimRenewal("session-id-0123456789", "rt", now + 1_000, now + 3_600_000)).toBeNull();
  });
});

describe("userFromClaims", () => {
  it("takes the name, else given plus family name, else the user name, else the email", () => {
    expect(userFromClaims({ sub: "1", name: "Pat Doe" }).name).toBe("Pat Doe");
    expect(userFromClaims({ sub: "1", given_name: "Pat", family_name: "Doe" })).toMatchObject({ name: "Pat Doe", firstName: "Pat", lastName: "Doe" });
    expect(userFromClaims({ sub: "1", email: "p@x.test" }).name).toBe("p@x.test");
    expect(userFromClaims({ sub: "1", preferred_username: "pdoe", email: "p@x.test" }).name).toBe("pdoe");
    expect(userFromClaims({ sub: "1", name: " ", given_name: "Pat", preferred_username: "pdoe" }).name).toBe("Pat");
    expect(userFromClaims({ sub: "1", groups: ["a", 2, "b"], roles: "admin" })).toMatchObject({ groups: ["a", "b"], roles: ["admin"] });
  });

  it("never shows the subject: a provider that sends no name, user name or email gets \"Signed in\"", () => {
    // Glewlwyd's default claims, and Entra ID's pairwise subjects: opaque.
    expect(userFromClaims({ sub: "7c4f0b1e-2d2a-4a8e-9b1f-51f0c2d3e4a5" }).name).toBe("Signed in");
    expect(userFromClaims({ sub: "7c4f", email: "", name: null }).name).toBe("Signed in");
  });
});

describe("renewal at a fraction of the tokens' lifetime", () => {
  const short = (now: number, lifetimeMs: number): SessionTokens => ({ accessToken: "at", refreshToken: "rt", idToken: "id.token.sig", issuedAt: now, expiresAt: now + lifetimeMs });

  it("renews tokens of a minute or less a quarter of their life early, not at every request", async () => {
    let n = 0;
    const { auth, clock, refreshed } = setup({ refresh: async () => ({ ...short(clock.now(), 40_000), accessToken: `at${++n}` }) });
    const cookies = await auth.begin(user, short(clock.now(), 40_000), new Request("http://portal.test/"));
    clock.advance(29_000);
    await auth.session(withCookies(cookies));
    expect(refreshed).toHaveLength(0);
    clock.advance(2_000);
    // Six parallel requests at renewal: one renewal, whose 40 s tokens are not due again at once.
    const sessions = await Promise.all(Array.from({ length: 6 }, () => auth.session(withCookies(cookies))));
    expect(sessions.map((s) => s?.record.tokens.accessToken)).toEqual(Array(6).fill("at1"));
    for (let i = 0; i < 6; i++) {
      clock.advance(4_000);
      await auth.session(withCookies(cookies));
    }
    expect(refreshed).toHaveLength(1);
    clock.advance(6_000);
    expect((await auth.session(withCookies(cookies)))?.record.tokens.accessToken).toBe("at2");
  });

  it("renews hour-long tokens a minute early (the spec's 60 s)", async () => {
    const { auth, clock, refreshed } = setup({ refresh: async () => short(clock.now(), 3_600_000) });
    const cookies = await auth.begin(user, short(clock.now(), 3_600_000), new Request("http://portal.test/"));
    clock.advance(58 * 60_000);
    await auth.session(withCookies(cookies));
    expect(refreshed).toHaveLength(0);
    clock.advance(61_000);
    await auth.session(withCookies(cookies));
    expect(refreshed).toHaveLength(1);
  });
});

describe("ended sessions and logout", () => {
  function withRevocation() {
    const made = setup();
    const revoked: string[] = [];
    (made.auth.oidc as unknown as { revoke: (t: string) => Promise<boolean> }).revoke = async (token) => {
      revoked.push(token);
      return true;
    };
    return { ...made, revoked };
  }

  it("a session the provider refused to renew signs nobody in, but logout still gets its ID token", async () => {
    const { auth, clock } = withRevocation();
    const cookies = await auth.begin(user, tokens(clock.now() + 30_000), new Request("http://portal.test/"));
    expect(await auth.user(withCookies(cookies))).toBeNull();
    expect(await auth.userIdOf(withCookies(cookies).headers.get("Cookie"))).toBeNull();
    const ended = await auth.end(withCookies(cookies));
    expect(ended.idToken).toBe("id.token.sig");
    expect(ended.refreshToken).toBeNull();
  });

  it("a session that ran out of idle time keeps its ID token for logout, and its refresh token is revoked", async () => {
    const { auth, clock, revoked } = withRevocation();
    const cookies = await auth.begin(user, tokens(clock.now() + 24 * 3_600_000), new Request("http://portal.test/"));
    clock.advance(61 * 60_000);
    expect(await auth.user(withCookies(cookies))).toBeNull();
    expect(revoked).toEqual(["rt"]);
    // Still nobody signed in, however often asked.
    expect(await auth.user(withCookies(cookies))).toBeNull();
    const ended = await auth.end(withCookies(cookies));
    expect(ended).toMatchObject({ idToken: "id.token.sig", refreshToken: null });
    // Logout removes what was left: a second logout has nothing to name.
    expect((await auth.end(withCookies(cookies))).idToken).toBeNull();
  });

  it("logout of a live session gives its ID token and refresh token, and ends it", async () => {
    const { auth, clock } = withRevocation();
    const cookies = await auth.begin(user, tokens(clock.now() + 3_600_000), new Request("http://portal.test/"));
    expect(await auth.end(withCookies(cookies))).toMatchObject({ idToken: "id.token.sig", refreshToken: "rt" });
    expect(await auth.user(withCookies(cookies))).toBeNull();
  });

  it("a back-channel logout token ends sessions once: a replay ends none, not even a session begun since", async () => {
    const { auth, clock } = withRevocation();
    const first = await auth.begin(user, tokens(clock.now() + 3_600_000), new Request("http://portal.test/"));
    const token = { sub: user.id, jti: "jti-1", acceptedUntil: Date.now() + 60_000 };
    expect(await auth.endForProvider(token)).toBe(1);
    expect(await auth.user(withCookies(first))).toBeNull();
    const second = await auth.begin(user, tokens(clock.now() + 3_600_000), new Request("http://portal.test/"));
    expect(await auth.endForProvider(token)).toBeNull();
    expect(await auth.user(withCookies(second))).not.toBeNull();
    expect(await auth.endForProvider({ ...token, jti: "jti-2" })).toBe(1);
  });

  it("a back-channel logout the store failed to carry out is not taken for a replay when the provider sends it again", async () => {
    const { auth, clock, store } = withRevocation();
    const session = await auth.begin(user, tokens(clock.now() + 3_600_000), new Request("http://portal.test/"));
    const token = { sub: user.id, jti: "jti-retry", acceptedUntil: Date.now() + 60_000 };
    const deleteForUser = store.deleteForUser.bind(store);
    store.deleteForUser = () => Promise.reject(new Error("database or disk is full"));
    await expect(auth.endForProvider(token)).rejects.toThrow("disk is full");
    store.deleteForUser = deleteForUser;
    expect(await auth.endForProvider(token)).toBe(1);
    expect(await auth.user(withCookies(session))).toBeNull();
  });
});

describe("back-channel logout in the SQLite store", () => {
  it("remembers a logout token's id across processes until it would no longer be accepted", async () => {
    const { store, file } = setup();
    const other = new SqliteSessionStore(file);
    const now = Date.now();
    expect(await store.rememberLogoutToken("j1", now + 1_000, now)).toBe(true);
    expect(await other.rememberLogoutToken("j1", now + 1_000, now)).toBe(false);
    expect(await other.rememberLogoutToken("j2", now + 1_000, now)).toBe(true);
    // Forgotten once it could no longer be accepted anyway.
    expect(await other.rememberLogoutToken("j1", now + 5_000, now + 1_000)).toBe(true);
    other.close();
  });

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
