import { createHmac, timingSafeEqual } from "node:crypto";
import { json, redirect } from "@remix-run/node";
import type { Auth } from "~/auth/auth.server";
import { AuthError } from "~/auth/oidc.server";
import type { User } from "~/auth/user";
import { safePath } from "~/lib/safe-path";
import { services } from "~/registry.server";
import { HOME_PATH, LOGIN_PATH } from "~/search/paths";
import { requestIdOf } from "./http.server";

/**
 * Sign-in for the web layer: the guard every protected loader calls first, the login, callback
 * and logout flows, and the CSRF token of forms that change state. With sign-in off, everyone is
 * signed in with no user and the sign-in routes lead to the search.
 */

/** Where a page request goes to sign in: `/login?returnTo=<this page>`. */
export function loginHref(request: Request): string {
  const url = new URL(request.url);
  return `${LOGIN_PATH}?${new URLSearchParams({ returnTo: `${url.pathname}${url.search}` })}`;
}

/**
 * The signed-in user of a protected page; without a session the page answers a redirect to sign
 * in that comes back to it. Null when sign-in is off.
 */
export async function requireUser(request: Request): Promise<User | null> {
  const { auth } = services();
  if (!auth) return null;
  const user = await auth.user(request);
  if (!user) throw redirect(loginHref(request));
  return user;
}

/** The API's guard: 401 in the error envelope, no redirect. */
export async function requireApiUser(request: Request): Promise<User | null> {
  const { auth } = services();
  if (!auth) return null;
  const user = await auth.user(request);
  if (user) return user;
  throw new Response(JSON.stringify({ error: { message: "Authentication required", status: 401, requestId: requestIdOf(request) } }), {
    status: 401,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", "X-Request-ID": requestIdOf(request) },
  });
}

/** What every page's layout needs: whether sign-in is on, who is signed in, the forms' CSRF token. */
export async function loadSignInState(request: Request) {
  const { auth } = services();
  if (!auth) return { ssoEnabled: false, user: null, csrf: null };
  const session = await auth.session(request);
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
async function checkCsrf(request: Request, auth: Auth, form: FormData): Promise<string | null> {
  const session = await auth.session(request);
  if (!session) return null;
  const given = Buffer.from(String(form.get("csrf") ?? ""));
  const expected = Buffer.from(csrfToken(auth, session.id));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw json({ message: "This form has expired. Reload the page and try again." }, { status: 403 });
  }
  return session.id;
}

const returnPath = (value: string | null | undefined) => safePath(value, HOME_PATH);

/**
 * /login: with sign-in off, or already signed in, to where the user was going; from a protected
 * page (`returnTo`) or the page's own button (`start`), straight to the identity provider;
 * visited directly, the sign-in page.
 */
export async function loadLogin(request: Request) {
  const { auth } = services();
  const url = new URL(request.url);
  const returnTo = url.searchParams.get("returnTo");
  if (!auth) throw redirect(HOME_PATH);
  if (await auth.user(request)) throw redirect(returnPath(returnTo));
  if (returnTo === null && url.searchParams.get("start") === null) return json({ error: null }, { headers: { "Cache-Control": "no-store" } });
  try {
    const toProvider = await auth.oidc.startSignIn(request);
    const headers = new Headers(toProvider.headers);
    headers.append("Set-Cookie", await auth.returnCookie.serialize(returnPath(returnTo)));
    headers.set("Cache-Control", "no-store");
    return new Response(null, { status: 302, headers });
  } catch (error) {
    console.error(`[${requestIdOf(request)}] sign-in could not start: ${error instanceof Error ? error.message : error}`);
    return json({ error: "Failed to initiate login. Please try again." }, { status: 503, headers: { "Cache-Control": "no-store" } });
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
export async function loadCallback(request: Request) {
  const { auth } = services();
  if (!auth) throw redirect(HOME_PATH);
  const headers = new Headers({ "Cache-Control": "no-store" });
  for (const cookie of clearStateCookies(request, auth)) headers.append("Set-Cookie", cookie);
  headers.append("Set-Cookie", await auth.returnCookie.serialize("", { maxAge: 0 }));
  try {
    const { user, tokens } = await auth.oidc.finishSignIn(request);
    for (const cookie of await auth.begin(user, tokens, request)) headers.append("Set-Cookie", cookie);
    const returnTo: unknown = await auth.returnCookie.parse(request.headers.get("Cookie"));
    headers.set("Location", returnPath(typeof returnTo === "string" ? returnTo : null));
    return new Response(null, { status: 302, headers });
  } catch (error) {
    const message = error instanceof AuthError ? error.message : "Authentication failed. Please try again.";
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
    console.warn(`[${requestIdOf(request)}] sign-in failed: ${error instanceof Error ? error.message : error}${cause}`);
    return json({ message }, { status: 401, headers });
  }
}

/**
 * POST /logout: ends the session here and, when the provider offers it, there too; back to the
 * site root either way.
 */
export async function logout(request: Request) {
  const { auth, config } = services();
  if (!auth) throw redirect("/");
  // A POST without a body (or not a form) is read as an empty form: it answers as any logout
  // without the form's token does, never with a 500.
  await checkCsrf(request, auth, await request.formData().catch(() => new FormData()));
  try {
    const { idToken, setCookies } = await auth.end(request);
    const headers = new Headers({ "Cache-Control": "no-store" });
    for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
    const atProvider = idToken ? await auth.oidc.endSessionUrl(idToken, `${config.appUrl}/`).catch(() => null) : null;
    headers.set("Location", atProvider ?? "/");
    return new Response(null, { status: 302, headers });
  } catch (error) {
    console.error(`[${requestIdOf(request)}] logout failed`, error);
    throw json({ message: "Failed to logout. Please try again." }, { status: 503 });
  }
}
