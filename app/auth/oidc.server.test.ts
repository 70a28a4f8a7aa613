import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { capturedLog, log } from "~/lib/log.server";
import { IdpUnavailableError, OidcClient, TokenRefusedError } from "./oidc.server";
import type { SessionTokens } from "./session-store.server";

const ISSUER = "https://idp.test/oidc";
const SECRET = "client-secret-never-logged";
const REFRESH = "refresh-token-never-logged";

let metadata: Record<string, unknown> = {};
let tokenAnswer: () => Response = () => HttpResponse.json({ access_token: "at2", expires_in: 60 });
let discoveryCalls = 0;
const revoked: string[] = [];

const server = setupServer(
  http.get(`${ISSUER}/.well-known/openid-configuration`, () => {
    discoveryCalls++;
    return HttpResponse.json(metadata);
  }),
  http.post(`${ISSUER}/token`, () => tokenAnswer()),
  http.post(`${ISSUER}/revoke`, async ({ request }) => {
    revoked.push(new URLSearchParams(await request.text()).get("token") ?? "");
    return new HttpResponse(null, { status: 200 });
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
afterEach(() => {
  discoveryCalls = 0;
  revoked.length = 0;
});

function freshMetadata(extra: Record<string, unknown> = {}) {
  metadata = {
    issuer: ISSUER,
    authorization_endpoint: `${ISSUER}/auth`,
    token_endpoint: `${ISSUER}/token`,
    jwks_uri: `${ISSUER}/jwks`,
    end_session_endpoint: `${ISSUER}/logout`,
    revocation_endpoint: `${ISSUER}/revoke`,
    scopes_supported: ["openid", "profile", "email"],
    ...extra,
  };
}

function client(options: { discoveryMaxAgeMs?: number } = {}) {
  return new OidcClient({
    issuer: ISSUER,
    clientId: "crib-search",
    clientSecret: SECRET,
    redirectUri: "http://portal.test/callback",
    nonceSecret: "a-nonce-secret-for-tests",
    stateCookie: "crib-oidc",
    secureCookies: false,
    timeoutMs: 2_000,
    ...options,
  });
}

const current: SessionTokens = { accessToken: "at", refreshToken: REFRESH, idToken: "id.token.sig", expiresAt: Date.now() };

async function refusalOf(answer: () => Response) {
  freshMetadata();
  tokenAnswer = answer;
  const { result, entries } = await capturedLog(() => client().refresh(current).then(() => null, (error: unknown) => error));
  return { error: result, entries, text: JSON.stringify(entries) };
}

describe("the token endpoint's answers to a renewal", () => {
  it("a 400 with an empty body (Glewlwyd's answer to a revoked grant) is a refusal, not silence", async () => {
    const { error, entries } = await refusalOf(() => new HttpResponse(null, { status: 400 }));
    expect(error).toBeInstanceOf(TokenRefusedError);
    expect(entries.find((e) => e.msg === "The identity provider refused a token request")).toMatchObject({ providerStatus: 400, providerError: "http_400", grantType: "refresh_token" });
  });

  it.each([
    [400, "invalid_grant", "grant revoked"],
    [401, "invalid_client", "wrong secret"],
    [400, "unauthorized_client", "refresh_token not allowed"],
    [403, "access_denied", "user disabled"],
  ])("a %i %s is a refusal, and the log says the provider's error and description, never a token or the secret", async (status, code, description) => {
    const { error, entries, text } = await refusalOf(() => HttpResponse.json({ error: code, error_description: description }, { status }));
    expect(error).toBeInstanceOf(TokenRefusedError);
    expect((error as TokenRefusedError).code).toBe(code);
    expect(entries.find((e) => e.msg === "The identity provider refused a token request")).toMatchObject({ providerError: code, providerErrorDescription: description, providerStatus: status });
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(REFRESH);
  });

  it.each([429, 408, 404, 500, 503])("a bodyless %i is no decision: the provider is taken as not answering", async (status) => {
    const { error } = await refusalOf(() => new HttpResponse(null, { status }));
    expect(error).toBeInstanceOf(IdpUnavailableError);
  });

  it("a renewal keeps its lifetime: issued now, expiring after expires_in", async () => {
    freshMetadata();
    tokenAnswer = () => HttpResponse.json({ access_token: "at2", expires_in: 60 });
    const before = Date.now();
    const tokens = await client().refresh(current);
    expect(tokens.issuedAt).toBeGreaterThanOrEqual(before);
    expect(tokens.expiresAt - tokens.issuedAt!).toBe(60_000);
    expect(tokens.refreshToken).toBe(REFRESH);
  });
});

describe("logout at the provider", () => {
  it("names the session with the ID token when known, and always the client, the way back and a state", async () => {
    freshMetadata();
    const url = new URL((await client().endSessionUrl({ idToken: "id.token.sig", postLogoutRedirectUri: "http://portal.test/signed-out", state: "s1" }))!);
    expect(url.origin + url.pathname).toBe(`${ISSUER}/logout`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ id_token_hint: "id.token.sig", client_id: "crib-search", post_logout_redirect_uri: "http://portal.test/signed-out", state: "s1" });
  });

  it("without an ID token names the client (RP-Initiated Logout 1.0 §2)", async () => {
    freshMetadata();
    const url = new URL((await client().endSessionUrl({ idToken: null, postLogoutRedirectUri: "http://portal.test/signed-out", state: "s2" }))!);
    expect(url.searchParams.has("id_token_hint")).toBe(false);
    expect(url.searchParams.get("client_id")).toBe("crib-search");
    expect(url.searchParams.get("state")).toBe("s2");
  });

  it("revokes the refresh token where the provider offers revocation, and not where it does not", async () => {
    freshMetadata();
    expect(await client().revoke(REFRESH)).toBe(true);
    expect(revoked).toEqual([REFRESH]);
    freshMetadata({ revocation_endpoint: undefined });
    expect(await client().revoke(REFRESH)).toBe(false);
    expect(revoked).toEqual([REFRESH]);
  });
});

describe("discovery", () => {
  it("is read again once it is older than its age, so a scope the provider adds is asked for", async () => {
    freshMetadata();
    const oidc = client({ discoveryMaxAgeMs: 0 });
    const scopes = async () => new URL((await oidc.startSignIn(new Request("http://portal.test/login"))).headers.get("location")!).searchParams.get("scope");
    expect(await scopes()).toBe("openid profile email");
    freshMetadata({ scopes_supported: ["openid", "profile", "email", "offline_access"] });
    // The re-read runs beside the request that found discovery old; a later one uses it.
    await expect.poll(scopes).toBe("openid profile email offline_access");
    expect(discoveryCalls).toBeGreaterThan(1);
  });

  it("is kept while it is young, and kept when reading it again fails", async () => {
    freshMetadata();
    const young = client();
    await young.metadata();
    await young.metadata();
    expect(discoveryCalls).toBe(1);

    const old = client({ discoveryMaxAgeMs: 0 });
    await old.metadata();
    metadata = {};
    const warn = vi.spyOn(log, "warn").mockImplementation(() => undefined);
    try {
      expect((await old.metadata()).token_endpoint).toBe(`${ISSUER}/token`);
      await expect.poll(() => warn.mock.calls.some(([, message]) => message === "Discovery could not be read again; the provider's earlier metadata stays in use")).toBe(true);
      expect((await old.metadata()).token_endpoint).toBe(`${ISSUER}/token`);
      // Not read again within a minute of the failure.
      expect(discoveryCalls).toBe(3);
    } finally {
      warn.mockRestore();
    }
  });

  it("is read again after a call to a moved endpoint fails", async () => {
    freshMetadata();
    const oidc = client({ discoveryMaxAgeMs: 3_600_000 });
    await oidc.metadata();
    expect(discoveryCalls).toBe(1);
    tokenAnswer = () => new HttpResponse(null, { status: 404 });
    await expect(oidc.refresh(current)).rejects.toBeInstanceOf(IdpUnavailableError);
    // Not within a minute of the last read: the provider is not asked at every failure.
    expect(discoveryCalls).toBe(1);
  });
});
