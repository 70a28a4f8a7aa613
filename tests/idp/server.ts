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
 * Variants, for the ways real providers differ:
 * - `refreshTokens`: `offline_access` (the default, as Okta: a refresh token only when the sign-in
 *   asked for that scope), `always`, or `never` (offline_access not even offered);
 * - `rotateRefreshTokens`: every renewal spends the refresh token and gives a new one, and a spent
 *   one presented again revokes the whole grant (oidc-provider's reuse detection);
 * - `hang(paths)`: from then on, requests to those paths are never answered (a provider that hangs).
 *
 *   npx tsx tests/idp/server.ts --port 3180 --portal http://127.0.0.1:3103 [--refresh-tokens never] [--rotate]
 */
import { exportJWK, generateKeyPair, SignJWT, decodeJwt, type JWK } from "jose";
import Provider from "oidc-provider";

export const CLIENT_ID = "crib-search";
export const CLIENT_SECRET = "idp-test-client-secret";
export const TAMPER_MODES = ["issuer", "audience", "nonce", "no-nonce", "expired", "signature", "none"] as const;
export type TamperMode = (typeof TAMPER_MODES)[number];

export interface TestIdp {
  issuer: string;
  /** Requests to these paths (`/token`, `/jwks`, `/me`, discovery's) hang from now on; none stops it. */
  hang(...paths: string[]): void;
  /** …and are answered again. */
  answer(...paths: string[]): void;
  /** How many requests reached `path` so far, answered or hung. */
  requestsTo(path: string): number;
  close(): Promise<void>;
}

export type RefreshTokens = "offline_access" | "always" | "never";

export interface IdpOptions {
  port: number;
  portals: string[];
  /** Seconds. */
  accessTokenTtl?: number;
  refreshTokens?: RefreshTokens;
  rotateRefreshTokens?: boolean;
  /**
   * The first portal is told of every logout at the provider (OpenID Connect Back-Channel Logout,
   * at `{portal}/backchannel-logout`), and ID tokens name the provider's session (`sid`).
   */
  backchannel?: boolean;
}

export const DISCOVERY_PATH = "/.well-known/openid-configuration";

/** An ID token made wrong in the way `mode` names, signed with the provider's key (or `other` for a bad signature). */
async function tampered(token: string, mode: TamperMode, keys: { privateKey: CryptoKey; other: CryptoKey }): Promise<string> {
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
  return new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "test-key" }).sign(mode === "signature" ? keys.other : keys.privateKey);
}

export async function startIdp(options: IdpOptions): Promise<TestIdp> {
  const refreshTokens = options.refreshTokens ?? "offline_access";
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
        post_logout_redirect_uris: options.portals.flatMap((p) => [`${p}/signed-out`, `${p}/`]),
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
    scopes: ["openid", "profile", "email", ...(refreshTokens === "never" ? [] : ["offline_access"])],
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true }, revocation: { enabled: true }, backchannelLogout: { enabled: options.backchannel ?? false } },
    ttl: { AccessToken: options.accessTokenTtl ?? 3600, IdToken: 3600 },
    issueRefreshToken: async (_ctx, client, code) =>
      refreshTokens === "always" || (refreshTokens === "offline_access" && client.grantTypeAllowed("refresh_token") && code.scopes.has("offline_access")),
    ...(options.rotateRefreshTokens === undefined ? {} : { rotateRefreshToken: () => options.rotateRefreshTokens! }),
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

  const hanging = new Set<string>();
  const received = new Map<string, number>();
  provider.use(async (ctx, next) => {
    received.set(ctx.path, (received.get(ctx.path) ?? 0) + 1);
    // oidc-provider keeps offline_access only with prompt=consent (OpenID Connect Core §11); Okta
    // and others do without. Adding it here makes the stand-in one of those.
    if (ctx.path === "/auth" && /\boffline_access\b/.test(String(ctx.query.scope ?? "")) && !ctx.query.prompt) {
      ctx.querystring = `${ctx.querystring}&prompt=consent`;
    }
    // Never answered: the connection stays open until the client gives up or the provider closes.
    if (hanging.has(ctx.path)) return new Promise<void>(() => undefined);
    await next();
    if (ctx.path !== "/token" || !ctx.body || typeof ctx.body !== "object" || !("id_token" in ctx.body)) return;
    const body = ctx.body as { id_token: string };
    const mode = String(decodeJwt(body.id_token).sub ?? "").replace(/^tamper-/, "");
    if ((TAMPER_MODES as readonly string[]).includes(mode)) body.id_token = await tampered(body.id_token, mode as TamperMode, { privateKey, other });
  });

  const server = provider.listen(options.port, "127.0.0.1");
  await new Promise<void>((resolve, reject) => server.once("listening", resolve).once("error", reject));
  return {
    issuer,
    hang: (...paths) => paths.forEach((path) => hanging.add(path)),
    answer: (...paths) => paths.forEach((path) => hanging.delete(path)),
    requestsTo: (path) => received.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Hung requests would keep it open for ever.
        server.closeAllConnections();
      }),
  };
}

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : undefined;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\/tests\//, "/tests/"))) {
  const port = Number(arg("port") ?? 3180);
  const portals = (arg("portal") ?? "http://127.0.0.1:3103").split(",");
  const idp = await startIdp({
    port,
    portals,
    accessTokenTtl: Number(arg("access-token-ttl") ?? 3600),
    refreshTokens: (arg("refresh-tokens") ?? "offline_access") as RefreshTokens,
    ...(process.argv.includes("--rotate") ? { rotateRefreshTokens: true } : {}),
  });
  console.log(`Test identity provider at ${idp.issuer}`);
}
