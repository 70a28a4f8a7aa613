/**
 * A real OpenID Provider for the sign-in tests: `oidc-provider` (certified) on 127.0.0.1, with its
 * development login and consent forms (any user name and password sign in), PKCE required, and
 * one confidential client per test portal.
 *
 * For the callback's negative cases it tampers with the ID token it issues to some users, re-signed
 * with its own key or another: a user named `tamper-<mode>` (`tamper-issuer`, `tamper-audience`,
 * `tamper-nonce`, `tamper-no-nonce`, `tamper-expired`, `tamper-signature`, `tamper-none`) gets a
 * token wrong in that way; everyone else an honest one. Tests can so run side by side.
 *
 *   npx tsx tests/idp/server.ts --port 3180 --portal http://127.0.0.1:3103
 */
import { exportJWK, generateKeyPair, SignJWT, decodeJwt, type JWK } from "jose";
import Provider from "oidc-provider";

export const CLIENT_ID = "crib-search";
export const CLIENT_SECRET = "idp-test-client-secret";
export const TAMPER_MODES = ["issuer", "audience", "nonce", "no-nonce", "expired", "signature", "none"] as const;
export type TamperMode = (typeof TAMPER_MODES)[number];

export interface TestIdp {
  issuer: string;
  close(): Promise<void>;
}

/**
 * `backchannel`: the first portal is told of every logout at the provider (OpenID Connect
 * Back-Channel Logout, at `{portal}/backchannel-logout`), and ID tokens name the provider's session (`sid`).
 */
export async function startIdp(options: { port: number; portals: string[]; accessTokenTtl?: number; backchannel?: boolean }): Promise<TestIdp> {
  const issuer = `http://127.0.0.1:${options.port}`;
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: "test-key", alg: "RS256", use: "sig" };
  const other = (await generateKeyPair("RS256")).privateKey;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: options.portals.map((p) => `${p}/callback`),
        post_logout_redirect_uris: options.portals.map((p) => `${p}/`),
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
        ...(options.backchannel ? { backchannel_logout_uri: `${options.portals[0]}/backchannel-logout`, backchannel_logout_session_required: true } : {}),
      },
    ],
    jwks: { keys: [jwk] },
    pkce: { required: () => true },
    // Its guard against calls to private addresses would stop the back-channel logout to the portal on 127.0.0.1.
    fetch: (url: Parameters<typeof fetch>[0], init?: RequestInit) => {
      const { dispatcher: _guard, ...rest } = (init ?? {}) as RequestInit & { dispatcher?: unknown };
      return fetch(url, rest);
    },
    cookies: { keys: ["test-idp-cookie-key"], names: { session: "idp_session", interaction: "idp_interaction", resume: "idp_resume" } },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "given_name", "family_name", "groups"] },
    scopes: ["openid", "profile", "email", "offline_access"],
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true }, backchannelLogout: { enabled: options.backchannel ?? false } },
    ttl: { AccessToken: options.accessTokenTtl ?? 3600, IdToken: 3600 },
    // A refresh token for every sign-in, so the portal can renew its tokens.
    issueRefreshToken: async () => true,
    async findAccount(_ctx, sub) {
      return {
        accountId: sub,
        async claims() {
          return { sub, email: `${sub}@example.test`, email_verified: true, given_name: "Pat", family_name: sub, name: `Pat ${sub}`, groups: ["stores"] };
        },
      };
    },
  });
  provider.proxy = false;
  provider.on("backchannel.error", (_ctx, error, client) => console.error(`Test IdP: back-channel logout to ${client.clientId} failed: ${error.message} ${(error as { cause?: Error }).cause?.message ?? ""}`));
  provider.on("backchannel.success", (_ctx, client) => console.log(`Test IdP: back-channel logout sent to ${client.clientId}`));

  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path !== "/token" || !ctx.body || typeof ctx.body !== "object" || !("id_token" in ctx.body)) return;
    const body = ctx.body as { id_token: string };
    const mode = String(decodeJwt(body.id_token).sub ?? "").replace(/^tamper-/, "");
    if ((TAMPER_MODES as readonly string[]).includes(mode)) body.id_token = await tampered(body.id_token, mode as TamperMode);
  });

  async function tampered(token: string, mode: TamperMode): Promise<string> {
    const claims = { ...decodeJwt(token) } as Record<string, unknown>;
    const now = Math.floor(Date.now() / 1000);
    if (mode === "issuer") claims.iss = "http://127.0.0.1:1/evil";
    if (mode === "audience") claims.aud = "another-client";
    if (mode === "nonce") claims.nonce = "not-the-nonce-of-this-sign-in";
    if (mode === "no-nonce") delete claims.nonce;
    if (mode === "expired") Object.assign(claims, { iat: now - 7200, exp: now - 3600 });
    if (mode === "none") {
      const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
      return `${part({ alg: "none", typ: "JWT" })}.${part(claims)}.`;
    }
    return new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "test-key" }).sign(mode === "signature" ? other : privateKey);
  }

  const server = provider.listen(options.port, "127.0.0.1");
  await new Promise<void>((resolve, reject) => server.once("listening", resolve).once("error", reject));
  return {
    issuer,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : undefined;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\/tests\//, "/tests/"))) {
  const port = Number(arg("port") ?? 3180);
  const portals = (arg("portal") ?? "http://127.0.0.1:3103").split(",");
  const idp = await startIdp({ port, portals, accessTokenTtl: Number(arg("access-token-ttl") ?? 3600) });
  console.log(`Test identity provider at ${idp.issuer}`);
}
