import type { RequestIdentity } from "~/auth/auth.server";
import type { SignalSession } from "./page-signals.server";

/**
 * What scripts/server.mjs establishes for a request before Remix runs and hands to its loaders,
 * actions and document render (`getLoadContext`), so the app never reads it again from the
 * request and nothing of it travels in a request header. All are absent when the app is served
 * another way (`remix dev`, a test calling a loader): the page then has no nonce, its signals no
 * session, and each ask for the signed-in user looks the session up.
 */
declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The request's id (its X-Request-ID when sane, else a new one), which its answer and the log line name. */
    requestId?: string;
    /** The nonce that this answer's Content-Security-Policy names. */
    cspNonce?: string;
    /** The visitor's usage-signals session, from the signals cookie, read once (signals.server.ts). */
    signals?: SignalSession;
    /** The request's sign-in, looked up once for all its loaders (auth.server.ts); absent with sign-in off. */
    identity?: RequestIdentity;
  }
}

export {};
