import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
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
