import { createHmac, timingSafeEqual } from "node:crypto";
import { createRemoteJWKSet, errors as joseErrors, jwtVerify } from "jose";
import { CodeChallengeMethod, OAuth2RequestError, OAuth2Strategy } from "remix-auth-oauth2";
import { z } from "zod";
import { boundedFetch } from "~/lib/bounded-fetch.server";
import type { SessionTokens } from "./session-store.server";
import { userFromClaims, type User } from "./user";

/**
 * The portal as an OpenID Connect relying party: the authorization code flow with PKCE (S256),
 * `state` and a `nonce`, against any issuer found by discovery. remix-auth-oauth2 runs the code
 * flow (state and verifier in a short-lived cookie); what it leaves to its caller is done here:
 * the nonce, the ID token's validation against the issuer's keys, and the userinfo call.
 */

const MetadataSchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
  userinfo_endpoint: z.url().optional(),
  end_session_endpoint: z.url().optional(),
  id_token_signing_alg_values_supported: z.array(z.string()).default(["RS256"]),
  scopes_supported: z.array(z.string()).optional(),
});
export type IssuerMetadata = z.infer<typeof MetadataSchema>;

const ClaimsSchema = z.looseObject({ sub: z.string().min(1) });

/** The token endpoint's answer (RFC 6749 §5.1); `id_token` is required at sign-in, not at renewal. */
const TokenResponseSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().positive().optional(),
  refresh_token: z.string().min(1).optional(),
  id_token: z.string().min(1).optional(),
});
type TokenResponse = z.infer<typeof TokenResponseSchema>;

/** Its error answer (RFC 6749 §5.2): the provider refused, as opposed to did not answer. */
const TokenErrorSchema = z.object({ error: z.string().min(1), error_description: z.string().optional() });

/** The scopes asked for; `offline_access` too where the provider offers it (Okta gives a refresh token only then). */
export function signInScopes(metadata: Pick<IssuerMetadata, "scopes_supported">): string[] {
  return ["openid", "profile", "email", ...(metadata.scopes_supported?.includes("offline_access") ? ["offline_access"] : [])];
}

/** How long any one call to the identity provider may take, unless the settings say otherwise. */
export const IDP_TIMEOUT_MS = 10_000;

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  /** `{APP_URL}/callback`. */
  redirectUri: string;
  /** Binds each sign-in's nonce to its state (the session secret). */
  nonceSecret: string;
  /** The state cookie's name; `__Host-` names need `secure`. */
  stateCookie: string;
  secureCookies: boolean;
  /** The hard limit of every call to the provider: discovery, token, userinfo, keys. */
  timeoutMs?: number;
}

/** A sign-in that failed; its message may be shown to the user. */
export class AuthError extends Error {
  override name = "AuthError";
}

export const NOT_ANSWERING = "The sign-in service is not answering. Please try again in a few minutes.";

/**
 * The provider did not answer in time, could not be reached or answered 5xx: nothing was decided
 * about the user, so a session goes on (a renewal is tried again later) and a sign-in may be retried.
 */
export class IdpUnavailableError extends AuthError {
  override name = "IdpUnavailableError";
  constructor(cause: unknown) {
    super(NOT_ANSWERING, { cause });
  }
}

/** The token endpoint refused the grant (`invalid_grant` and the like): the provider said no. */
export class TokenRefusedError extends AuthError {
  override name = "TokenRefusedError";
  constructor(readonly code: string) {
    super("The identity provider refused the sign-in.");
  }
}

export interface SignIn {
  user: User;
  tokens: SessionTokens;
  /** The provider's session (`sid`), when its ID token names one. */
  providerSid?: string;
}

/** Who a back-channel logout token ends: a user, one provider session of a user, or both named. */
export interface LogoutOrder {
  sub?: string;
  sid?: string;
}

const BACKCHANNEL_EVENT = "http://schemas.openid.net/event/backchannel-logout";

/** Signature algorithms that a key set can verify: never `none`, never a shared secret. */
const ASYMMETRIC = /^(RS|PS|ES)(256|384|512)$|^EdDSA$|^Ed25519$/;

const trimSlash = (url: string) => url.replace(/\/+$/, "");

/**
 * The token endpoint's answer, standing in for arctic's `OAuth2Tokens` with the one accessor
 * `verify` calls: the code exchange is made here rather than by arctic, whose requests cannot be
 * given a time limit.
 */
class Tokens {
  constructor(readonly data: TokenResponse) {}
  idToken(): string {
    if (!this.data.id_token) throw new Error("no id_token");
    return this.data.id_token;
  }
}

class OidcStrategy extends OAuth2Strategy<SignIn> {
  constructor(
    options: OAuth2Strategy.ConstructorOptions,
    verify: (options: OAuth2Strategy.VerifyOptions) => Promise<SignIn>,
    private readonly nonceFor: (state: string) => string,
    private readonly exchange: (code: string, codeVerifier: string) => Promise<Tokens>,
  ) {
    super(options, verify);
  }

  // The strategy hands these tokens to `verify` only, which uses no more than `Tokens` has.
  protected override validateAuthorizationCode(code: string, codeVerifier: string): Promise<OAuth2Strategy.VerifyOptions["tokens"]> {
    return this.exchange(code, codeVerifier) as unknown as Promise<OAuth2Strategy.VerifyOptions["tokens"]>;
  }

  protected override authorizationParams(params: URLSearchParams): URLSearchParams {
    const out = new URLSearchParams(params);
    out.set("nonce", this.nonceFor(params.get("state") ?? ""));
    return out;
  }
}

export class OidcClient {
  private discovery: Promise<{ metadata: IssuerMetadata; strategy: OidcStrategy; keys: ReturnType<typeof createRemoteJWKSet> }> | null = null;

  constructor(private readonly settings: OidcSettings) {}

  get issuer(): string {
    return this.settings.issuer;
  }

  /** The issuer's metadata and the strategy built on it; a failed discovery is tried again next time. */
  private discover() {
    this.discovery ??= this.load().catch((error: unknown) => {
      this.discovery = null;
      throw error;
    });
    return this.discovery;
  }

  get timeoutMs(): number {
    return this.settings.timeoutMs ?? IDP_TIMEOUT_MS;
  }

  /**
   * A call to the provider, answer included, within the timeout. No answer in time, no connection
   * or a 5xx is IdpUnavailableError; `read` gets the response and reads its body.
   */
  private async call<T>(url: string, init: Parameters<typeof boundedFetch>[1], read: (response: Response) => Promise<T>): Promise<T> {
    let response: Response;
    try {
      // One limit for the whole exchange: a provider that sends headers and then stalls the body is
      // as stuck as one that never answers.
      response = await boundedFetch(url, init, AbortSignal.timeout(this.timeoutMs));
    } catch (error) {
      // No connection, a reset, a cut-off answer or the timeout.
      throw new IdpUnavailableError(error);
    }
    if (response.status >= 500) throw new IdpUnavailableError(new Error(`${url} answered ${response.status}`));
    return read(response);
  }

  private async load() {
    const url = `${trimSlash(this.settings.issuer)}/.well-known/openid-configuration`;
    const metadata = await this.call(url, { headers: { Accept: "application/json" } }, async (response) => {
      if (!response.ok) throw new Error(`discovery at ${url} answered ${response.status}`);
      return MetadataSchema.parse(await response.json());
    });
    // OpenID Connect Discovery §4.3: the metadata must name the issuer it was asked for.
    if (trimSlash(metadata.issuer) !== trimSlash(this.settings.issuer)) throw new Error(`discovery names issuer ${metadata.issuer}`);
    const strategy = new OidcStrategy(
      {
        clientId: this.settings.clientId,
        clientSecret: this.settings.clientSecret ?? null,
        authorizationEndpoint: metadata.authorization_endpoint,
        tokenEndpoint: metadata.token_endpoint,
        redirectURI: this.settings.redirectUri,
        scopes: signInScopes(metadata),
        codeChallengeMethod: CodeChallengeMethod.S256,
        cookie: {
          name: this.settings.stateCookie,
          path: "/",
          sameSite: "Lax",
          httpOnly: true,
          ...(this.settings.secureCookies ? { secure: true as const } : {}),
        },
      },
      (options) => this.verify(options),
      (state) => this.nonceFor(state),
      (code, codeVerifier) => this.exchangeCode(metadata.token_endpoint, code, codeVerifier),
    );
    // jose fetches the keys itself; its own timeout bounds that call.
    return { metadata, strategy, keys: createRemoteJWKSet(new URL(metadata.jwks_uri), { timeoutDuration: this.timeoutMs }) };
  }

  /** A back-channel logout token of this issuer, for this client; throws AuthError otherwise. */
  async verifyLogout(token: string): Promise<LogoutOrder> {
    const { metadata, keys } = await this.discover();
    const algorithms = metadata.id_token_signing_alg_values_supported.filter((alg) => ASYMMETRIC.test(alg));
    return verifyLogoutToken(token, keys, { issuer: metadata.issuer, clientId: this.settings.clientId, algorithms: algorithms.length ? algorithms : ["RS256"] });
  }

  /** The metadata, for the debug pages and the CSP's form-action. */
  metadata(): Promise<IssuerMetadata> {
    return this.discover().then((d) => d.metadata);
  }

  /**
   * A request to the token endpoint, authenticated as the client (HTTP Basic with a secret, as
   * arctic did; `client_id` in the body for a public client). A refusal is TokenRefusedError.
   */
  private tokenRequest(endpoint: string, params: Record<string, string>): Promise<TokenResponse> {
    const body = new URLSearchParams(params);
    const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" };
    if (this.settings.clientSecret) {
      headers.Authorization = `Basic ${Buffer.from(`${this.settings.clientId}:${this.settings.clientSecret}`).toString("base64")}`;
    } else {
      body.set("client_id", this.settings.clientId);
    }
    return this.call(endpoint, { method: "POST", headers, body: body.toString() }, async (response) => {
      const data: unknown = await response.json().catch(() => null);
      if (response.status === 200) return TokenResponseSchema.parse(data);
      const refused = TokenErrorSchema.safeParse(data);
      if (refused.success) throw new TokenRefusedError(refused.data.error);
      throw new Error(`the token endpoint answered ${response.status}`);
    });
  }

  private async exchangeCode(endpoint: string, code: string, codeVerifier: string): Promise<Tokens> {
    try {
      return new Tokens(await this.tokenRequest(endpoint, { grant_type: "authorization_code", code, code_verifier: codeVerifier, redirect_uri: this.settings.redirectUri }));
    } catch (error) {
      if (error instanceof AuthError) throw error;
      throw new AuthError("Authentication failed. Please try again.", { cause: error });
    }
  }

  private nonceFor(state: string): string {
    return createHmac("sha256", this.settings.nonceSecret).update(`nonce:${state}`).digest("base64url");
  }

  /** The redirect to the provider's sign-in, with the state cookie. */
  async startSignIn(request: Request): Promise<Response> {
    const { strategy } = await this.discover();
    // Discovery failures propagate: the login page says whether the provider is not answering.
    try {
      // A URL without `state`: whatever the request carried, this starts a new sign-in.
      await strategy.authenticate(new Request(this.settings.redirectUri, { headers: request.headers }));
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
    throw new Error("the strategy neither redirected nor failed");
  }

  /** The callback: state, code exchange with the verifier, ID token and userinfo. Fails with AuthError. */
  async finishSignIn(request: Request): Promise<SignIn> {
    try {
      const { strategy } = await this.discover();
      return await strategy.authenticate(request);
    } catch (error) {
      if (error instanceof AuthError) throw error;
      if (error instanceof OAuth2RequestError) {
        throw new AuthError(error.code === "access_denied" ? "Sign-in was cancelled or refused." : "The identity provider refused the sign-in.", { cause: error });
      }
      if (error instanceof ReferenceError || error instanceof RangeError) {
        throw new AuthError("This sign-in link has expired or was already used. Please sign in again.", { cause: error });
      }
      throw new AuthError("Authentication failed. Please try again.", { cause: error });
    }
  }

  private async verify({ request, tokens }: OAuth2Strategy.VerifyOptions): Promise<SignIn> {
    const { metadata, keys } = await this.discover();
    const state = new URL(request.url).searchParams.get("state") ?? "";
    let idToken: string;
    try {
      idToken = tokens.idToken();
    } catch {
      throw new AuthError("The identity provider sent no ID token.");
    }
    const algorithms = metadata.id_token_signing_alg_values_supported.filter((alg) => ASYMMETRIC.test(alg));
    let claims: Record<string, unknown>;
    try {
      const { payload } = await jwtVerify(idToken, keys, {
        issuer: metadata.issuer,
        audience: this.settings.clientId,
        algorithms: algorithms.length > 0 ? algorithms : ["RS256"],
        requiredClaims: ["sub", "iat", "exp", "nonce"],
        // The spec's maximum clock skew between the portal and the provider.
        clockTolerance: 300,
      });
      claims = payload;
    } catch (error) {
      // The keys could not be fetched: the provider is not answering, nothing is known of the token.
      if (error instanceof joseErrors.JWKSTimeout || !(error instanceof joseErrors.JOSEError)) throw new IdpUnavailableError(error);
      const expired = error instanceof joseErrors.JWTExpired;
      throw new AuthError(expired ? "The sign-in has expired. Please try again." : "The identity provider's token could not be verified.", { cause: error });
    }
    const expected = Buffer.from(this.nonceFor(state));
    const given = Buffer.from(typeof claims.nonce === "string" ? claims.nonce : "");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AuthError("The identity provider's token could not be verified.");
    // With several audiences, the token must have been issued to this client (OIDC Core §3.1.3.7).
    if (Array.isArray(claims.aud) && claims.aud.length > 1 && claims.azp !== this.settings.clientId) {
      throw new AuthError("The identity provider's token could not be verified.");
    }
    const answer = (tokens as unknown as Tokens).data;
    const info = metadata.userinfo_endpoint ? await this.userinfo(metadata.userinfo_endpoint, answer.access_token, String(claims.sub)) : {};
    const user = userFromClaims({ ...claims, ...info, sub: claims.sub });
    const sid = typeof claims.sid === "string" && claims.sid ? claims.sid : undefined;
    return { user, tokens: tokenSet(answer, idToken), ...(sid ? { providerSid: sid } : {}) };
  }

  private userinfo(endpoint: string, accessToken: string, sub: string): Promise<Record<string, unknown>> {
    return this.call(endpoint, { headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json" } }, async (response) => {
      if (!response.ok) throw new AuthError("The identity provider did not tell who signed in.");
      const parsed = ClaimsSchema.safeParse(await response.json().catch(() => null));
      // OIDC Core §5.3.2: a userinfo answer for another subject must not be used.
      if (!parsed.success || parsed.data.sub !== sub) throw new AuthError("The identity provider did not tell who signed in.");
      return parsed.data;
    });
  }

  /**
   * New tokens for the session's refresh token; the ID token and the refresh token stay unless the
   * provider sends new ones (a provider that rotates refresh tokens sends a new one every time).
   * TokenRefusedError when the provider says no, IdpUnavailableError when it does not answer.
   */
  async refresh(current: SessionTokens): Promise<SessionTokens> {
    if (!current.refreshToken) throw new Error("no refresh token");
    const { metadata } = await this.discover();
    const answer = await this.tokenRequest(metadata.token_endpoint, { grant_type: "refresh_token", refresh_token: current.refreshToken });
    const next = tokenSet(answer, answer.id_token ?? current.idToken);
    return { ...next, refreshToken: next.refreshToken ?? current.refreshToken };
  }

  /**
   * RP-initiated logout at the provider, when it offers it. Without the ID token (a session this
   * replica could not find) the client id alone names the portal: the provider then asks the
   * person to confirm, and still ends the session there.
   */
  async endSessionUrl(idToken: string | null, postLogoutRedirectUri: string): Promise<string | null> {
    const { metadata } = await this.discover();
    if (!metadata.end_session_endpoint) return null;
    const url = new URL(metadata.end_session_endpoint);
    if (idToken) url.searchParams.set("id_token_hint", idToken);
    url.searchParams.set("post_logout_redirect_uri", postLogoutRedirectUri);
    url.searchParams.set("client_id", this.settings.clientId);
    return url.toString();
  }
}

/**
 * A back-channel logout token (OpenID Connect Back-Channel Logout 1.0 §2.6): signed by the
 * issuer's keys, for this client, with the logout event, a `sub` or a `sid`, and no nonce.
 * Throws AuthError when it is not one.
 */
export async function verifyLogoutToken(
  token: string,
  keys: Parameters<typeof jwtVerify>[1],
  expected: { issuer: string; clientId: string; algorithms: string[] },
): Promise<LogoutOrder> {
  let claims: Record<string, unknown>;
  try {
    const { payload } = await jwtVerify(token, keys as Parameters<typeof jwtVerify>[1] & CryptoKey, {
      issuer: expected.issuer,
      audience: expected.clientId,
      algorithms: expected.algorithms,
      requiredClaims: ["iat", "jti"],
      maxTokenAge: "10 minutes",
      clockTolerance: 300,
    });
    claims = payload;
  } catch (error) {
    throw new AuthError("The logout token could not be verified.", { cause: error });
  }
  const events = claims.events;
  if (!events || typeof events !== "object" || typeof (events as Record<string, unknown>)[BACKCHANNEL_EVENT] !== "object") {
    throw new AuthError("The logout token carries no logout event.");
  }
  if ("nonce" in claims) throw new AuthError("A logout token has no nonce.");
  const sub = typeof claims.sub === "string" && claims.sub ? claims.sub : undefined;
  const sid = typeof claims.sid === "string" && claims.sid ? claims.sid : undefined;
  if (!sub && !sid) throw new AuthError("The logout token names no user and no session.");
  return { ...(sub ? { sub } : {}), ...(sid ? { sid } : {}) };
}

function tokenSet(answer: TokenResponse, idToken: string): SessionTokens {
  return {
    accessToken: answer.access_token,
    refreshToken: answer.refresh_token ?? null,
    idToken,
    // No expires_in: an hour, as most providers give.
    expiresAt: Date.now() + (answer.expires_in ?? 3600) * 1000,
  };
}
