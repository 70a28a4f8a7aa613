import { createHmac, timingSafeEqual } from "node:crypto";
import { createRemoteJWKSet, errors as joseErrors, jwtVerify } from "jose";
import { CodeChallengeMethod, OAuth2RequestError, OAuth2Strategy } from "remix-auth-oauth2";
import { z } from "zod";
import { boundedFetch } from "~/lib/bounded-fetch.server";
import { log } from "~/lib/log.server";
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
  revocation_endpoint: z.url().optional(),
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

/**
 * What a provider said when it refused, for the log: its `error` and `error_description` (cut
 * short, control characters out) and the HTTP status. Never a token, a code or a secret.
 */
export interface ProviderRefusal {
  status?: number;
  error: string;
  description?: string;
}

// eslint-disable-next-line no-control-regex
const logText = (value: string, max: number) => value.replace(/[\u0000-\u001f\u007f]/g, " ").slice(0, max);

function refusalOf(status: number, data: unknown): ProviderRefusal {
  const parsed = TokenErrorSchema.safeParse(data);
  // An empty or unreadable body (Glewlwyd answers a revoked refresh token so) still says no.
  if (!parsed.success) return { status, error: `http_${status}` };
  return { status, error: logText(parsed.data.error, 100), ...(parsed.data.error_description ? { description: logText(parsed.data.error_description, 500) } : {}) };
}

/**
 * A token endpoint's 4xx is the provider's word on the grant (RFC 6749 §5.2 answers 400 or 401,
 * with or without a body) except where the status says it did not decide: 404 and 405 (the
 * endpoint moved: discovery is read again), 408 and 429 (come back later).
 */
const UNDECIDED_4XX = new Set([404, 405, 408, 425, 429]);

/** The fields of an error's provider refusal, for a log entry; none when it carries none. */
export function refusalFields(error: unknown): Record<string, unknown> {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e instanceof AuthError && e.refusal) {
      const { status, error: code, description } = e.refusal;
      return { providerError: code, ...(description ? { providerErrorDescription: description } : {}), ...(status ? { providerStatus: status } : {}) };
    }
    if (e instanceof OAuth2RequestError) {
      return { providerError: logText(e.code, 100), ...(e.description ? { providerErrorDescription: logText(e.description, 500) } : {}) };
    }
  }
  return {};
}

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
  /** How long discovery and the keys are used before they are read again (an hour). */
  discoveryMaxAgeMs?: number;
}

/** A sign-in that failed; its message may be shown to the user. */
export class AuthError extends Error {
  override name = "AuthError";
  /** The provider's own words, when it refused. */
  refusal?: ProviderRefusal;
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
  readonly code: string;
  constructor(refusal: ProviderRefusal | string) {
    super("The identity provider refused the sign-in.");
    this.refusal = typeof refusal === "string" ? { error: refusal } : refusal;
    this.code = this.refusal.error;
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

/** A verified logout token: whom it ends, its `jti`, and until when it would still be accepted (ms). */
export interface LogoutToken extends LogoutOrder {
  jti: string;
  acceptedUntil: number;
}

/** How old a logout token may be (its `iat`), besides the clock skew: it is sent as the session ends. */
export const LOGOUT_TOKEN_MAX_AGE_S = 120;
/** The spec's maximum clock skew between the portal and the provider. */
export const CLOCK_SKEW_S = 300;
/** The `typ` headers of a logout token (Back-Channel Logout 1.0 §2.4 recommends `logout+jwt`); none is accepted too. */
const LOGOUT_TYPES = new Set(["logout+jwt", "application/logout+jwt", "jwt"]);

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

type Discovered = { metadata: IssuerMetadata; strategy: OidcStrategy; keys: ReturnType<typeof createRemoteJWKSet> };

/** Discovery and the keys are read again this often, and after a call that failed (not sooner than a minute after the last read). */
const DISCOVERY_MAX_AGE_MS = 60 * 60_000;
const DISCOVERY_MIN_AGE_MS = 60_000;

export class OidcClient {
  private discovery: Promise<Discovered> | null = null;
  private discoveredAt = 0;
  private rereading: Promise<Discovered> | null = null;

  constructor(private readonly settings: OidcSettings) {}

  get issuer(): string {
    return this.settings.issuer;
  }

  private get discoveryMaxAgeMs(): number {
    return this.settings.discoveryMaxAgeMs ?? DISCOVERY_MAX_AGE_MS;
  }

  /**
   * The issuer's metadata, keys and the strategy built on them; a failed discovery is tried again
   * next time. Past their age they are read again in the background while the ones at hand serve,
   * so that a provider that adds a scope or moves an endpoint is followed without a restart, and a
   * provider that is down costs no request a wait.
   */
  private discover(): Promise<Discovered> {
    if (this.discovery && Date.now() - this.discoveredAt >= this.discoveryMaxAgeMs) void this.reread().catch(() => undefined);
    this.discovery ??= this.load().then(
      (discovered) => {
        this.discoveredAt = Date.now();
        return discovered;
      },
      (error: unknown) => {
        this.discovery = null;
        throw error;
      },
    );
    return this.discovery;
  }

  /**
   * Reads discovery and the keys again now (one read at a time); the ones at hand stay when it
   * fails. Resolves to whichever are in use afterwards.
   */
  private reread(): Promise<Discovered> {
    if (!this.discovery) return this.discover();
    this.rereading ??= this.load()
      .then(
        (discovered) => {
          this.discovery = Promise.resolve(discovered);
          this.discoveredAt = Date.now();
          return discovered;
        },
        async (error: unknown) => {
          // Tried again no sooner than a minute from now.
          this.discoveredAt = Date.now() - this.discoveryMaxAgeMs + DISCOVERY_MIN_AGE_MS;
          log.warn({ issuer: this.settings.issuer, err: error }, "Discovery could not be read again; the provider's earlier metadata stays in use");
          return this.discovery!;
        },
      )
      .finally(() => {
        this.rereading = null;
      });
    return this.rereading;
  }

  /** A call to the provider failed in a way a moved endpoint explains: discovery is read again soon. */
  private suspectDiscovery(): void {
    if (this.discovery && Date.now() - this.discoveredAt >= DISCOVERY_MIN_AGE_MS) void this.reread().catch(() => undefined);
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
      this.suspectDiscovery();
      throw new IdpUnavailableError(error);
    }
    if (response.status >= 500) throw new IdpUnavailableError(new Error(`${url} answered ${response.status}`));
    if (response.status === 404 || response.status === 405) this.suspectDiscovery();
    return read(response);
  }

  private async load(): Promise<Discovered> {
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
    // jose fetches the keys itself (again on a key id it does not know); its own timeout bounds that call.
    return { metadata, strategy, keys: createRemoteJWKSet(new URL(metadata.jwks_uri), { timeoutDuration: this.timeoutMs }) };
  }

  /**
   * A JWT verified with the issuer's keys; when no key has its `kid` even after jose read the key
   * set again, discovery is read again (the provider may have moved its keys) and it is tried once more.
   */
  private async withKeys<T>(verify: (discovered: Discovered) => Promise<T>): Promise<T> {
    const discovered = await this.discover();
    try {
      return await verify(discovered);
    } catch (error) {
      const unknownKey = error instanceof joseErrors.JWKSNoMatchingKey || (error instanceof Error && error.cause instanceof joseErrors.JWKSNoMatchingKey);
      if (!unknownKey) throw error;
      const again = await this.reread();
      if (again === discovered) throw error;
      return verify(again);
    }
  }

  /** A back-channel logout token of this issuer, for this client; throws AuthError otherwise. */
  verifyLogout(token: string): Promise<LogoutToken> {
    return this.withKeys(({ metadata, keys }) => {
      const algorithms = metadata.id_token_signing_alg_values_supported.filter((alg) => ASYMMETRIC.test(alg));
      return verifyLogoutToken(token, keys, { issuer: metadata.issuer, clientId: this.settings.clientId, algorithms: algorithms.length ? algorithms : ["RS256"] });
    });
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
    const headers = this.authenticate(body);
    return this.call(endpoint, { method: "POST", headers, body: body.toString() }, async (response) => {
      const data: unknown = await response.json().catch(() => null);
      if (response.status === 200) return TokenResponseSchema.parse(data);
      const refusal = refusalOf(response.status, data);
      const decided = response.status >= 400 && response.status < 500 && (!UNDECIDED_4XX.has(response.status) || TokenErrorSchema.safeParse(data).success);
      if (!decided) throw new IdpUnavailableError(new Error(`the token endpoint answered ${response.status}`));
      log.warn({ issuer: this.settings.issuer, grantType: params.grant_type, ...refusalFields(new TokenRefusedError(refusal)) }, "The identity provider refused a token request");
      throw new TokenRefusedError(refusal);
    });
  }

  /** The client's credentials on a form to the provider: HTTP Basic with a secret, `client_id` in the body without. */
  private authenticate(body: URLSearchParams): Record<string, string> {
    const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" };
    if (this.settings.clientSecret) headers.Authorization = `Basic ${Buffer.from(`${this.settings.clientId}:${this.settings.clientSecret}`).toString("base64")}`;
    else body.set("client_id", this.settings.clientId);
    return headers;
  }

  /**
   * Revokes a refresh token at the provider (RFC 7009), where discovery offers revocation: the
   * grant ends there too, whatever happens to the portal's copy. Never throws; a failure is logged.
   */
  async revoke(refreshToken: string): Promise<boolean> {
    try {
      const { metadata } = await this.discover();
      if (!metadata.revocation_endpoint) return false;
      const body = new URLSearchParams({ token: refreshToken, token_type_hint: "refresh_token" });
      const headers = this.authenticate(body);
      return await this.call(metadata.revocation_endpoint, { method: "POST", headers, body: body.toString() }, async (response) => {
        if (response.ok) return true;
        const data: unknown = await response.json().catch(() => null);
        log.warn({ issuer: this.settings.issuer, ...refusalFields(new TokenRefusedError(refusalOf(response.status, data))) }, "The identity provider refused to revoke a refresh token");
        return false;
      });
    } catch (error) {
      log.warn({ issuer: this.settings.issuer, err: error }, "A refresh token could not be revoked: the identity provider did not answer");
      return false;
    }
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
        const refused = new AuthError(error.code === "access_denied" ? "Sign-in was cancelled or refused." : "The identity provider refused the sign-in.", { cause: error });
        refused.refusal = { error: logText(error.code, 100), ...(error.description ? { description: logText(error.description, 500) } : {}) };
        throw refused;
      }
      if (error instanceof ReferenceError || error instanceof RangeError) {
        throw new AuthError("This sign-in link has expired or was already used. Please sign in again.", { cause: error });
      }
      throw new AuthError("Authentication failed. Please try again.", { cause: error });
    }
  }

  private async verify({ request, tokens }: OAuth2Strategy.VerifyOptions): Promise<SignIn> {
    const { metadata } = await this.discover();
    const state = new URL(request.url).searchParams.get("state") ?? "";
    let idToken: string;
    try {
      idToken = tokens.idToken();
    } catch {
      throw new AuthError("The identity provider sent no ID token.");
    }
    const algorithms = metadata.id_token_signing_alg_values_supported.filter((alg) => ASYMMETRIC.test(alg));
    const claims = await this.withKeys(({ keys }) => this.verifyIdToken(idToken, keys, metadata.issuer, algorithms));
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

  private async verifyIdToken(idToken: string, keys: Discovered["keys"], issuer: string, algorithms: string[]): Promise<Record<string, unknown>> {
    try {
      const { payload } = await jwtVerify(idToken, keys, {
        issuer,
        audience: this.settings.clientId,
        algorithms: algorithms.length > 0 ? algorithms : ["RS256"],
        requiredClaims: ["sub", "iat", "exp", "nonce"],
        clockTolerance: CLOCK_SKEW_S,
      });
      return payload;
    } catch (error) {
      // The keys could not be fetched: the provider is not answering, nothing is known of the token.
      if (error instanceof joseErrors.JWKSTimeout || !(error instanceof joseErrors.JOSEError)) throw new IdpUnavailableError(error);
      const expired = error instanceof joseErrors.JWTExpired;
      throw new AuthError(expired ? "The sign-in has expired. Please try again." : "The identity provider's token could not be verified.", { cause: error });
    }
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
   * RP-initiated logout at the provider (RP-Initiated Logout 1.0 §2), when it offers it: the ID
   * token as `id_token_hint` when the portal still has it, the client id always (the spec's
   * alternative when it has not: the provider then asks the person to confirm), and always where to
   * come back and a `state` (some providers, Glewlwyd among them, send the browser back only with one).
   */
  async endSessionUrl(logout: { idToken: string | null; postLogoutRedirectUri: string; state: string }): Promise<string | null> {
    const { metadata } = await this.discover();
    if (!metadata.end_session_endpoint) return null;
    const url = new URL(metadata.end_session_endpoint);
    if (logout.idToken) url.searchParams.set("id_token_hint", logout.idToken);
    url.searchParams.set("client_id", this.settings.clientId);
    url.searchParams.set("post_logout_redirect_uri", logout.postLogoutRedirectUri);
    url.searchParams.set("state", logout.state);
    return url.toString();
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A back-channel logout token (OpenID Connect Back-Channel Logout 1.0 §2.4, §2.6): signed by the
 * issuer's keys, for this client, at most LOGOUT_TOKEN_MAX_AGE_S old (plus the clock skew), of
 * type `logout+jwt` or `JWT` (or none), with a `jti`, an `events` object holding the logout event
 * (an object), a `sub` or a `sid`, and no nonce. Throws AuthError, saying why, when it is not one;
 * the caller remembers its `jti` until `acceptedUntil`, so that it ends sessions once.
 */
export async function verifyLogoutToken(
  token: string,
  keys: Parameters<typeof jwtVerify>[1],
  expected: { issuer: string; clientId: string; algorithms: string[] },
): Promise<LogoutToken> {
  let claims: Record<string, unknown>;
  let typ: string | undefined;
  try {
    const { payload, protectedHeader } = await jwtVerify(token, keys as Parameters<typeof jwtVerify>[1] & CryptoKey, {
      issuer: expected.issuer,
      audience: expected.clientId,
      algorithms: expected.algorithms,
      requiredClaims: ["iat", "jti"],
      maxTokenAge: LOGOUT_TOKEN_MAX_AGE_S,
      clockTolerance: CLOCK_SKEW_S,
    });
    claims = payload;
    typ = protectedHeader.typ;
  } catch (error) {
    throw new AuthError(`The logout token could not be verified${error instanceof Error ? ` (${error.message})` : ""}.`, { cause: error });
  }
  if (typ !== undefined && !LOGOUT_TYPES.has(typ.toLowerCase())) throw new AuthError(`The logout token's type is ${typ.slice(0, 40)}, not logout+jwt.`);
  if (!isObject(claims.events) || !isObject(claims.events[BACKCHANNEL_EVENT])) throw new AuthError("The logout token carries no logout event.");
  if ("nonce" in claims) throw new AuthError("A logout token has no nonce.");
  if (typeof claims.jti !== "string" || claims.jti === "") throw new AuthError("The logout token has no jti.");
  const sub = typeof claims.sub === "string" && claims.sub ? claims.sub : undefined;
  const sid = typeof claims.sid === "string" && claims.sid ? claims.sid : undefined;
  if (!sub && !sid) throw new AuthError("The logout token names no user and no session.");
  // The check above accepts it until then, on this clock (a minute more, for the replicas' clocks).
  const acceptedUntil = (Number(claims.iat) + LOGOUT_TOKEN_MAX_AGE_S + CLOCK_SKEW_S + 60) * 1000;
  return { ...(sub ? { sub } : {}), ...(sid ? { sid } : {}), jti: claims.jti, acceptedUntil };
}

function tokenSet(answer: TokenResponse, idToken: string): SessionTokens {
  const issuedAt = Date.now();
  return {
    accessToken: answer.access_token,
    refreshToken: answer.refresh_token ?? null,
    idToken,
    issuedAt,
    // No expires_in: an hour, as most providers give.
    expiresAt: issuedAt + (answer.expires_in ?? 3600) * 1000,
  };
}
