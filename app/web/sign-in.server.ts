import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { json, redirect, type AppLoadContext } from "@remix-run/node";
import type { Auth, RequestIdentity } from "~/auth/auth.server";
import { SessionStoreUnavailable } from "~/auth/guarded-session-store.server";
import { AuthError, IdpUnavailableError, NOT_ANSWERING, refusalFields } from "~/auth/oidc.server";
import type { User } from "~/auth/user";
import { log } from "~/lib/log.server";
import { safePath } from "~/lib/safe-path";
import { services } from "~/registry.server";
import { HOME_PATH, LOGIN_PATH, SIGNED_OUT_PATH } from "~/search/paths";
import { FORM_MAX_BYTES } from "./envelope.server";
import { readBoundedText, readForm, requestIdOf } from "./http.server";

/**
 * Sign-in for the web layer: the guard every protected loader calls first, the login, callback
 * and logout flows, and the CSRF token of forms that change state. With sign-in off, everyone is
 * signed in with no user and the sign-in routes lead to the search.
 */

/** An error and its cause, for the log. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
}

/** What a page says while the sessions cannot be read or written (the store is down, its disk full). */
export const SIGN_IN_UNAVAILABLE = "Sign-in is unavailable for a moment. Please try again in a minute.";
/** How long a client may wait before it tries again: about what a database restart or fail-over takes. */
const RETRY_AFTER_SECONDS = "30";

/**
 * `work`, with a session store that is not answering turned into a 503 that says so (the API's
 * error envelope for the API): the person did nothing wrong, and nobody sees the generic error
 * page. The store's failure is logged once by the store (store-health), not per request.
 */
async function guarded<T>(request: Request, context: AppLoadContext, work: Promise<T>, api = false): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof SessionStoreUnavailable)) throw error;
    const headers = { "Cache-Control": "no-store", "Retry-After": RETRY_AFTER_SECONDS, "X-Request-ID": requestIdOf(request, context) };
    if (api) throw new Response(JSON.stringify({ error: { message: SIGN_IN_UNAVAILABLE, status: 503, requestId: requestIdOf(request, context) } }), { status: 503, headers: { ...headers, "Content-Type": "application/json; charset=utf-8" } });
    throw json({ message: SIGN_IN_UNAVAILABLE }, { status: 503, headers });
  }
}

/**
 * The request's sign-in: the one scripts/server.mjs handed over in the load context, looked up once
 * for all of the request's loaders, or one of its own for a request that did not come through the
 * server (`remix dev`, a test calling a loader).
 */
export function identityOf(auth: Auth, request: Request, context: AppLoadContext): RequestIdentity {
  return context.identity ?? auth.identityOf(request.headers.get("Cookie"));
}

/** Where a page request goes to sign in: `/login?returnTo=<this page>`. */
function loginHref(request: Request): string {
  const url = new URL(request.url);
  return `${LOGIN_PATH}?${new URLSearchParams({ returnTo: `${url.pathname}${url.search}` })}`;
}

/**
 * The signed-in user of a protected page; without a session the page answers a redirect to sign
 * in that comes back to it. Null when sign-in is off.
 */
export async function requireUser(request: Request, context: AppLoadContext): Promise<User | null> {
  const { auth } = services();
  if (!auth) return null;
  const user = await guarded(request, context, identityOf(auth, request, context).user());
  if (!user) throw redirect(loginHref(request));
  return user;
}

/** The API's guard: 401 in the `{"error": …}` wrapper, no redirect. */
export async function requireApiUser(request: Request, context: AppLoadContext): Promise<User | null> {
  const { auth } = services();
  if (!auth) return null;
  const user = await guarded(request, context, identityOf(auth, request, context).user(), true);
  if (user) return user;
  throw new Response(JSON.stringify({ error: { message: "Authentication required", status: 401, requestId: requestIdOf(request, context) } }), {
    status: 401,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", "X-Request-ID": requestIdOf(request, context) },
  });
}

/** What every page's layout needs: whether sign-in is on, who is signed in, the forms' CSRF token. */
export async function loadSignInState(request: Request, context: AppLoadContext) {
  const { auth } = services();
  if (!auth) return { ssoEnabled: false, user: null, csrf: null };
  const session = await guarded(request, context, identityOf(auth, request, context).session());
  return {
    ssoEnabled: true,
    user: session ? { name: session.record.user.name, email: session.record.user.email } : null,
    csrf: session ? csrfToken(auth, session.id) : null,
  };
}

function csrfToken(auth: Auth, sessionId: string): string {
  return createHmac("sha256", auth.options.sessionSecret).update(`csrf:${sessionId}`).digest("base64url");
}

/** A form of this session (`csrf`), posted from this site; anything else is refused with 403. */
async function checkCsrf(request: Request, context: AppLoadContext, auth: Auth, form: FormData): Promise<string | null> {
  const session = await guarded(request, context, identityOf(auth, request, context).session());
  if (!session) return null;
  const given = Buffer.from(String(form.get("csrf") ?? ""));
  const expected = Buffer.from(csrfToken(auth, session.id));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw json({ message: "This form has expired. Reload the page and try again." }, { status: 403 });
  }
  return session.id;
}

const returnPath = (value: string | null | undefined) => safePath(value, HOME_PATH);

/** A request for a page to show (or from a browser that does not say what it asks for). */
function isNavigation(request: Request): boolean {
  const dest = request.headers.get("Sec-Fetch-Dest");
  return dest === null || dest === "document";
}

/**
 * /login: with sign-in off, or already signed in, to where the user was going; from a protected
 * page (`returnTo`) or the page's own button (`start`), straight to the identity provider. Opened
 * directly (typed, bookmarked, a link of the portal) it starts sign-in by itself (spec §2) through
 * `?start=1`, the address the rate limit counts as a flow start; sent by another site's page
 * (`Sec-Fetch-Site: cross-site`) it shows the sign-in page and its button instead, so that no
 * other site can start flows in a person's name and spend their allowance.
 */
export async function loadLogin(request: Request, context: AppLoadContext) {
  const { auth } = services();
  const url = new URL(request.url);
  const returnTo = url.searchParams.get("returnTo");
  if (!auth) throw redirect(HOME_PATH);
  if (await guarded(request, context, identityOf(auth, request, context).user())) throw redirect(returnPath(returnTo));
  // Only a page the browser shows starts a flow: a picture or a fetch that a protected page's
  // redirect brought here (a missing image, a request of a page left behind) must not replace the
  // flow and the way back that the page itself started.
  if (!isNavigation(request)) throw json({ message: "Sign in to see this." }, { status: 401, headers: { "Cache-Control": "no-store" } });
  if (returnTo === null && url.searchParams.get("start") === null) {
    if (request.headers.get("Sec-Fetch-Site") === "cross-site") return json({ error: null, detail: null }, { headers: { "Cache-Control": "no-store" } });
    throw redirect(`${LOGIN_PATH}?start=1`, { headers: { "Cache-Control": "no-store" } });
  }
  try {
    const toProvider = await auth.oidc.startSignIn(request);
    const headers = new Headers(toProvider.headers);
    headers.append("Set-Cookie", await auth.returnCookie.serialize(returnPath(returnTo)));
    headers.set("Cache-Control", "no-store");
    return new Response(null, { status: 302, headers });
  } catch (error) {
    log.error({ requestId: requestIdOf(request, context), reason: describe(error), ...refusalFields(error) }, "Sign-in could not start");
    // Spec §8's text, and why when the provider is not answering.
    const detail = error instanceof IdpUnavailableError ? NOT_ANSWERING : null;
    return json({ error: LOGIN_FAILED, detail }, { status: 503, headers: { "Cache-Control": "no-store" } });
  }
}

/** Set-Cookie headers that remove every sign-in state cookie the request carries. */
function clearStateCookies(request: Request, auth: Auth): string[] {
  const prefix = auth.options.secureCookies ? "__Host-crib-oidc" : "crib-oidc";
  const secure = auth.options.secureCookies ? "; Secure" : "";
  return (request.headers.get("Cookie") ?? "")
    .split(";")
    .map((part) => part.split("=")[0]!.trim())
    .filter((name) => name.startsWith(prefix))
    .map((name) => `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure}`);
}

/**
 * /callback: the provider's answer. Success starts a new session and goes where the user was
 * going; every failure shows the failure screen and starts no session.
 */
export async function loadCallback(request: Request, context: AppLoadContext) {
  const { auth } = services();
  if (!auth) throw redirect(HOME_PATH);
  const headers = new Headers({ "Cache-Control": "no-store" });
  for (const cookie of clearStateCookies(request, auth)) headers.append("Set-Cookie", cookie);
  headers.append("Set-Cookie", await auth.returnCookie.serialize("", { maxAge: 0 }));
  try {
    const { user, tokens, providerSid } = await auth.oidc.finishSignIn(request);
    // The request's sign-in is another from here on.
    context.identity?.forget();
    for (const cookie of await auth.begin(user, tokens, request, providerSid)) headers.append("Set-Cookie", cookie);
    const returnTo: unknown = await auth.returnCookie.parse(request.headers.get("Cookie"));
    headers.set("Location", returnPath(typeof returnTo === "string" ? returnTo : null));
    return new Response(null, { status: 302, headers });
  } catch (error) {
    // A session that could not be stored is the portal's failure, not the person's sign-in's.
    if (error instanceof SessionStoreUnavailable) return json({ message: SIGN_IN_UNAVAILABLE }, { status: 503, headers });
    const message = error instanceof AuthError ? error.message : "Authentication failed. Please try again.";
    log.warn({ requestId: requestIdOf(request, context), reason: describe(error), ...refusalFields(error) }, "Sign-in failed");
    // Not answering is no refusal: 503, the way a proxy or a monitor tells the two apart.
    return json({ message }, { status: error instanceof IdpUnavailableError ? 503 : 401, headers });
  }
}

/**
 * POST /logout: ends the session in the store (shared by every replica when there is one), revokes
 * its refresh token where the provider offers revocation, and sends the browser to the provider's
 * logout, whether or not the session was still live (an ended one still gives its ID token): a
 * logout that skipped the provider would let the next person at a shared terminal sign in without
 * a password. The provider sends the browser back to the signed-out page.
 */
export async function logout(request: Request, context: AppLoadContext) {
  const { auth, config } = services();
  if (!auth) throw redirect("/");
  const form = await readForm(request);
  try {
    await checkCsrf(request, context, auth, form);
    // The request's sign-in is another from here on.
    context.identity?.forget();
    const { idToken, refreshToken, setCookies } = await auth.end(request);
    const headers = new Headers({ "Cache-Control": "no-store" });
    for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
    if (refreshToken) await auth.oidc.revoke(refreshToken);
    const atProvider = await auth.oidc
      .endSessionUrl({ idToken, postLogoutRedirectUri: `${config.appUrl}${SIGNED_OUT_PATH}`, state: randomBytes(16).toString("base64url") })
      .catch((error: unknown) => {
        log.warn({ requestId: requestIdOf(request, context), err: error }, "Logout at the identity provider skipped: its discovery could not be read");
        return null;
      });
    headers.set("Location", atProvider ?? SIGNED_OUT_PATH);
    return new Response(null, { status: 302, headers });
  } catch (error) {
    throw logoutFailure(error, requestIdOf(request, context));
  }
}

/** Spec §8's text of a logout that could not be made. */
export const LOGOUT_FAILED = "Failed to logout. Please try again.";
/** Spec §8's text of a sign-in that could not start. */
export const LOGIN_FAILED = "Failed to initiate login. Please try again.";

/**
 * What a logout that failed answers: an answer meant for the person (an expired form, 403) as it
 * is; anything else, the session store not answering included, spec §8's "Failed to logout.
 * Please try again." (503), since the person is still signed in.
 */
export function logoutFailure(error: unknown, requestId: string): Response {
  if (error instanceof Response && error.status < 500) return error;
  log.error({ requestId, err: error instanceof Response ? `HTTP ${error.status}` : error }, "Logout failed");
  return json({ message: LOGOUT_FAILED }, { status: 503, headers: { "Cache-Control": "no-store", "Retry-After": RETRY_AFTER_SECONDS } });
}

/**
 * POST /backchannel-logout (OpenID Connect Back-Channel Logout): the provider tells the portal
 * that a user signed out there; every portal session of that user (or of that provider session)
 * ends, on every replica that shares the store. Answers 200, or 400 for a token that is not one.
 */
export async function backchannelLogout(request: Request, context: AppLoadContext) {
  const { auth } = services();
  const headers = { "Cache-Control": "no-store", "Content-Type": "application/json; charset=utf-8" };
  const refuse = (description: string) => new Response(JSON.stringify({ error: "invalid_request", error_description: description }), { status: 400, headers });
  if (!auth) return refuse("Sign-in is off.");
  if (request.method !== "POST") return new Response(null, { status: 405, headers: { ...headers, Allow: "POST" } });
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded")) return refuse("Expected a form with logout_token.");
  // Read with a bound before it is parsed: a logout token is a few KiB.
  const body = await readBoundedText(request, FORM_MAX_BYTES).catch(() => "");
  if (body === null) return new Response(JSON.stringify({ error: "invalid_request", error_description: "The request is too large." }), { status: 413, headers });
  const token = new URLSearchParams(body).get("logout_token");
  if (!token) return refuse("Expected a form with logout_token.");
  try {
    const verified = await auth.oidc.verifyLogout(token);
    const ended = await auth.endForProvider(verified);
    if (ended === null) {
      log.warn({ requestId: requestIdOf(request, context), reason: "replayed" }, "Back-channel logout refused: the logout token was already used");
      return refuse("The logout token was already used.");
    }
    log.info({ requestId: requestIdOf(request, context), sessionsEnded: ended }, "Back-channel logout");
    return new Response(null, { status: 200, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    // Not stored is not done: a 5xx makes the provider send the logout again.
    if (error instanceof SessionStoreUnavailable) {
      return new Response(JSON.stringify({ error: "temporarily_unavailable", error_description: "The sessions cannot be changed now; send the logout again." }), { status: 503, headers: { ...headers, "Retry-After": RETRY_AFTER_SECONDS } });
    }
    const message = error instanceof AuthError ? error.message : "The logout token could not be verified.";
    log.warn({ requestId: requestIdOf(request, context), reason: describe(error) }, "Back-channel logout refused");
    return refuse(message);
  }
}
