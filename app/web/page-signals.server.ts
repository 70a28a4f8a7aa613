import { createHash, randomBytes } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import { services } from "~/registry.server";
import type { SignalContext, SignalInput } from "~/signals/signals.server";
import { identityOf } from "./sign-in.server";
import { readSessionCookie, sessionCookie } from "./signals-cookie.server";

export type { SignalInput };

/**
 * The usage signals' side of the web layer: the visitor's session (a random id in an HttpOnly
 * cookie made on the first page, signed so a made-up id is no session), and the one recorder of
 * the signals pages produce (docs/decisions/035).
 *
 * scripts/server.mjs reads the cookie once per request, before Remix (`signalSession`, through the
 * envelope), and hands the session to loaders and actions in the load context, as it hands the
 * nonce: nothing about it travels in a request header, so nothing a client sends can name it.
 */

/** Who signals are from, as far as the HTTP server knows before the app runs: all but the signed-in user. */
export type SignalSession = Omit<SignalContext, "userId">;

function cookieName(): string {
  return services().config.appUrl.startsWith("https:") ? "__Host-crib-sid" : "crib-sid";
}

let secret: string | undefined;
function cookieSecret(): string {
  return (secret ??= services().signals.secret("session-cookie"));
}

/** A client without a valid session cookie, told apart by its address (hashed: the address itself is kept nowhere). */
function byClient(client: string): string {
  return `client:${createHash("sha256").update(client).digest("base64url").slice(0, 22)}`;
}

/** A request the HTTP server did not hand over (`remix dev`, a test calling a loader): no session, an unknown client. */
const NO_SESSION: SignalSession = { sessionId: null, identity: byClient("unknown") };

/**
 * For scripts/server.mjs, once per request: the visitor's session from the request's Cookie header
 * and the client's address and, for a visitor without a valid cookie, the cookie that starts one.
 * With signals off no cookie is read or made.
 */
export function signalSession(cookieHeader: string | undefined, client: string): { session: SignalSession; setCookie: string | null } {
  const anonymous = { session: { sessionId: null, identity: byClient(client) }, setCookie: null };
  if (!services().signals.enabled) return anonymous;
  let key: string;
  try {
    key = cookieSecret();
  } catch {
    // The shared key is not loaded yet (PostgreSQL has not answered since the start): the visitor
    // is counted by address until it is, rather than given a cookie the other replicas could not read.
    return anonymous;
  }
  const fromCookie = readSessionCookie(cookieHeader, cookieName(), key);
  if (fromCookie) return { session: { sessionId: fromCookie, identity: fromCookie }, setCookie: null };
  // A first page, or a client that keeps no cookies: the duplicate and flood checks count such
  // clients by address, so replaying a link without its cookie counts once.
  const id = randomBytes(16).toString("base64url");
  return { session: { sessionId: id, identity: byClient(client) }, setCookie: sessionCookie(cookieName(), id, key) };
}

/** The session the HTTP server handed over with the request, and the signed-in user. */
export async function signalContextOf(request: Request, context: AppLoadContext): Promise<SignalContext> {
  const { auth } = services();
  const user = auth ? await identityOf(auth, request, context).user().catch(() => null) : null;
  return { ...(context.signals ?? NO_SESSION), userId: user?.id ?? null };
}

/**
 * A usage signal a page produced: known when the page answers, or a promise of one that comes
 * later (a download's conversion once its last row is sent), null when it never does.
 */
export type PageSignal = SignalInput | Promise<SignalInput | null>;

/** A page's answer with the usage signals it produced; a page that produced none returns its answer alone. */
export class Signalled<T> {
  constructor(
    readonly answer: T,
    readonly signals: readonly PageSignal[],
  ) {}
}

/** The page's `answer`, and `signals` for the route's recorder ({@link recordingSignals}) to record. */
export function withSignals<T>(answer: T, signals: readonly PageSignal[]): Signalled<T> {
  return new Signalled(answer, signals);
}

/** What a page that may produce signals answers with. */
export type AnswerOf<P> = P extends Signalled<infer T> ? T : P;

/** A page's answer, whether it produced signals or not. */
export function answerOf<P>(result: P): AnswerOf<P> {
  return (result instanceof Signalled ? result.answer : result) as AnswerOf<P>;
}

/**
 * The one recorder of the pages' usage signals, a side channel as InstantSearch's insights
 * middleware is: a route hands it its page, it records the signals the page returned with the
 * request's session (the load context's) and user, and answers with the page's answer. Recording
 * never fails or delays the page.
 */
export async function recordingSignals<P>(args: { request: Request; context: AppLoadContext }, page: Promise<P>): Promise<AnswerOf<P>> {
  const result = await page;
  const recorder = services().signals;
  if (!(result instanceof Signalled) || !recorder.enabled) return answerOf(result);
  // One look-up of the user for all of the page's signals, and none for a page whose promised signals never came.
  let who: Promise<SignalContext> | undefined;
  const record = (input: SignalInput) => {
    const work = (who ??= signalContextOf(args.request, args.context)).then((context) => recorder.recordSoon(input, context));
    recorder.track(work);
    void work.catch((error: unknown) => console.error("Signal could not be recorded:", error));
  };
  for (const signal of result.signals) {
    if (signal instanceof Promise) void signal.then((input) => input && record(input), () => undefined);
    else record(signal);
  }
  return answerOf(result);
}
