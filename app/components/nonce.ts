import { createContext, useContext } from "react";

/** The Content-Security-Policy nonce of the document being rendered (set by entry.server). */
export const NonceContext = createContext<string | undefined>(undefined);

/**
 * The nonce on the server; in the browser, the one the document was served with (read from its
 * scripts, whose `nonce` property keeps it), so that a `<style>` React adds after a client-side
 * navigation carries the nonce the document's Content-Security-Policy names.
 */
export function useNonce(): string | undefined {
  const rendered = useContext(NonceContext);
  if (rendered !== undefined || typeof document === "undefined") return rendered;
  return document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce || undefined;
}
