import type { SignalSession } from "./page-signals.server";

/**
 * What scripts/server.mjs establishes for a request before Remix runs and hands to its loaders,
 * actions and document render (`getLoadContext`), so the app never reads it again from the
 * request. Both are absent when the app is served another way (`remix dev`, a test calling a
 * loader): the page then has no nonce and its signals no session.
 */
declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The nonce that this answer's Content-Security-Policy names. */
    cspNonce?: string;
    /** The visitor's usage-signals session, from the signals cookie, read once (signals.server.ts). */
    signals?: SignalSession;
  }
}

export {};
