import { createHash, randomBytes } from "node:crypto";
import { services } from "~/registry.server";
import type { Outcome, SignalContext, SignalInput } from "~/signals/signals.server";
import { readSessionCookie, sessionCookie } from "./signals-cookie.server";

/**
 * The usage signals' side of the web layer: the visitor's session (a random id in an HttpOnly
 * cookie made on the first page, signed so a made-up id is no session) and the recording of a
 * signal with the session and the signed-in user.
 *
 * scripts/server.mjs, before Remix, calls `signalSession`: with no valid cookie it makes one and
 * hands the new id to the app in `x-crib-fresh-session`, and the client's address in
 * `x-crib-client` (both headers are the server's own: whatever a client sends under those names is
 * removed first).
 */

const FRESH = "x-crib-fresh-session";
const CLIENT = "x-crib-client";

function cookieName(): string {
  return services().config.appUrl.startsWith("https:") ? "__Host-crib-sid" : "crib-sid";
}

let secret: string | undefined;
function cookieSecret(): string {
  return (secret ??= services().signals.secret("session-cookie"));
}

/** The session id of a request's signals cookie, or null when it has none of ours. */
function verified(cookieHeader: string | null | undefined): string | null {
  return readSessionCookie(cookieHeader, cookieName(), cookieSecret());
}

type Headers = Record<string, string | string[] | undefined>;

/**
 * For scripts/server.mjs: the request headers to set for the app and, for a visitor without a
 * valid session, the cookie that starts one. Nothing with signals off.
 */
export function signalSession(headers: Headers, client: string): { requestHeaders: Record<string, string>; setCookie: string | null } {
  delete headers[FRESH];
  delete headers[CLIENT];
  const requestHeaders: Record<string, string> = { [CLIENT]: client };
  if (!services().signals.enabled) return { requestHeaders, setCookie: null };
  const cookie = Array.isArray(headers.cookie) ? headers.cookie.join("; ") : headers.cookie;
  if (verified(cookie)) return { requestHeaders, setCookie: null };
  const id = randomBytes(16).toString("base64url");
  requestHeaders[FRESH] = id;
  return { requestHeaders, setCookie: sessionCookie(cookieName(), id, cookieSecret()) };
}

/** The session, the user and the identity the duplicate and flood checks count by. */
export async function signalContextOf(request: Request): Promise<SignalContext> {
  const { auth } = services();
  const user = auth ? await auth.user(request).catch(() => null) : null;
  const fromCookie = verified(request.headers.get("Cookie"));
  const fresh = request.headers.get(FRESH);
  const sessionId = fromCookie ?? (fresh && /^[A-Za-z0-9_-]{22}$/.test(fresh) ? fresh : null);
  // A request without a valid session cookie is a first page, or a client that keeps no cookies:
  // such clients are told apart by address, so replaying a link without its cookie counts once.
  const client = request.headers.get(CLIENT) ?? "unknown";
  const identity = fromCookie ?? `client:${createHash("sha256").update(client).digest("base64url").slice(0, 22)}`;
  return { sessionId, userId: user?.id ?? null, identity };
}

/** Records a signal that happened on this request; never fails the page. */
export function recordSignal(request: Request, input: SignalInput): Promise<Outcome> {
  const signals = services().signals;
  if (!signals.enabled) return Promise.resolve("off");
  const work = signalContextOf(request).then((context) => signals.recordSoon(input, context));
  signals.track(work);
  return work.catch((error: unknown) => {
    console.error("Signal could not be recorded:", error);
    return "invalid" as const;
  });
}
