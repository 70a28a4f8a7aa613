import { exportJWK, generateKeyPair, SignJWT, createLocalJWKSet, type JWTPayload } from "jose";
import { describe, expect, it } from "vitest";
import { AuthError, verifyLogoutToken } from "./oidc.server";

const { privateKey, publicKey } = await generateKeyPair("RS256");
const other = (await generateKeyPair("RS256")).privateKey;
const keys = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: "k", alg: "RS256" }] });
const expected = { issuer: "https://idp.example", clientId: "crib-search", algorithms: ["RS256"] };
const EVENT = { "http://schemas.openid.net/event/backchannel-logout": {} };

function token(claims: JWTPayload, options: { key?: CryptoKey; omit?: string[]; typ?: string | null } = {}) {
  const all: JWTPayload = { iss: expected.issuer, aud: expected.clientId, iat: Math.floor(Date.now() / 1000), jti: "j1", sub: "pat", sid: "s1", events: EVENT, ...claims };
  for (const name of options.omit ?? []) delete all[name];
  const typ = options.typ === undefined ? "logout+jwt" : options.typ;
  return new SignJWT(all).setProtectedHeader({ alg: "RS256", kid: "k", ...(typ === null ? {} : { typ }) }).sign(options.key ?? privateKey);
}

const whom = async (jwt: string) => {
  const { jti: _jti, acceptedUntil: _until, ...order } = await verifyLogoutToken(jwt, keys, expected);
  return order;
};

describe("back-channel logout tokens", () => {
  it("name the user and the provider's session", async () => {
    expect(await whom(await token({}))).toEqual({ sub: "pat", sid: "s1" });
    expect(await whom(await token({}, { omit: ["sid"] }))).toEqual({ sub: "pat" });
    expect(await whom(await token({}, { omit: ["sub"] }))).toEqual({ sid: "s1" });
  });

  it("give their jti and until when they would be accepted: two minutes after iat, plus the clock skew", async () => {
    const iat = Math.floor(Date.now() / 1000);
    const verified = await verifyLogoutToken(await token({ iat, jti: "j-42" }), keys, expected);
    expect(verified.jti).toBe("j-42");
    expect(verified.acceptedUntil).toBeGreaterThanOrEqual((iat + 120 + 300) * 1000);
    expect(verified.acceptedUntil).toBeLessThanOrEqual((iat + 120 + 300 + 60) * 1000);
  });

  it.each([["logout+jwt"], ["JWT"], ["application/logout+jwt"], [null]] as const)("accept the type %s", async (typ) => {
    expect(await whom(await token({}, { typ }))).toEqual({ sub: "pat", sid: "s1" });
  });

  it.each([
    ["another issuer's", { iss: "https://evil.example" }, {}],
    ["another client's", { aud: "another-client" }, {}],
    ["signed with another key", {}, { key: other }],
    ["without the logout event", { events: { "urn:other": {} } }, {}],
    ["whose events are null", { events: null }, {}],
    ["whose logout event is null", { events: { "http://schemas.openid.net/event/backchannel-logout": null } }, {}],
    ["whose events are a list", { events: [EVENT] }, {}],
    ["of another type (an access token)", {}, { typ: "at+jwt" }],
    ["issued 8 minutes ago (2 minutes old, and the clock skew)", { iat: Math.floor(Date.now() / 1000) - 8 * 60 }, {}],
    ["issued 6 minutes ahead of this clock", { iat: Math.floor(Date.now() / 1000) + 6 * 60 }, {}],
    ["with a nonce (an ID token)", { nonce: "n" }, {}],
    ["naming nobody", {}, { omit: ["sub", "sid"] }],
    ["without a jti", {}, { omit: ["jti"] }],
    ["issued long ago", { iat: Math.floor(Date.now() / 1000) - 3600 }, {}],
  ] as const)("refuse one %s", async (_name, claims, options) => {
    await expect(verifyLogoutToken(await token(claims as JWTPayload, options as { key?: CryptoKey; omit?: string[]; typ?: string }), keys, expected)).rejects.toBeInstanceOf(AuthError);
  });

  it("refuse what is not a token", async () => {
    await expect(verifyLogoutToken("not.a.token", keys, expected)).rejects.toBeInstanceOf(AuthError);
  });
});
