import { exportJWK, generateKeyPair, SignJWT, createLocalJWKSet, type JWTPayload } from "jose";
import { describe, expect, it } from "vitest";
import { AuthError, verifyLogoutToken } from "./oidc.server";

const { privateKey, publicKey } = await generateKeyPair("RS256");
const other = (await generateKeyPair("RS256")).privateKey;
const keys = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: "k", alg: "RS256" }] });
const expected = { issuer: "https://idp.example", clientId: "crib-search", algorithms: ["RS256"] };
const EVENT = { "http://schemas.openid.net/event/backchannel-logout": {} };

function token(claims: JWTPayload, options: { key?: CryptoKey; omit?: string[] } = {}) {
  const all: JWTPayload = { iss: expected.issuer, aud: expected.clientId, iat: Math.floor(Date.now() / 1000), jti: "j1", sub: "pat", sid: "s1", events: EVENT, ...claims };
  for (const name of options.omit ?? []) delete all[name];
  return new SignJWT(all).setProtectedHeader({ alg: "RS256", kid: "k", typ: "logout+jwt" }).sign(options.key ?? privateKey);
}

describe("back-channel logout tokens", () => {
  it("name the user and the provider's session", async () => {
    expect(await verifyLogoutToken(await token({}), keys, expected)).toEqual({ sub: "pat", sid: "s1" });
    expect(await verifyLogoutToken(await token({}, { omit: ["sid"] }), keys, expected)).toEqual({ sub: "pat" });
    expect(await verifyLogoutToken(await token({}, { omit: ["sub"] }), keys, expected)).toEqual({ sid: "s1" });
  });

  it.each([
    ["another issuer's", { iss: "https://evil.example" }, {}],
    ["another client's", { aud: "another-client" }, {}],
    ["signed with another key", {}, { key: other }],
    ["without the logout event", { events: { "urn:other": {} } }, {}],
    ["with a nonce (an ID token)", { nonce: "n" }, {}],
    ["naming nobody", {}, { omit: ["sub", "sid"] }],
    ["without a jti", {}, { omit: ["jti"] }],
    ["issued long ago", { iat: Math.floor(Date.now() / 1000) - 3600 }, {}],
  ] as const)("refuse one %s", async (_name, claims, options) => {
    await expect(verifyLogoutToken(await token(claims, options as { key?: CryptoKey; omit?: string[] }), keys, expected)).rejects.toBeInstanceOf(AuthError);
  });

  it("refuse what is not a token", async () => {
    await expect(verifyLogoutToken("not.a.token", keys, expected)).rejects.toBeInstanceOf(AuthError);
  });
});
