/** The embed page's parts (routes/embed.tsx): the widgets' elements and their script after a client-side navigation. */
import { createElement, useEffect, type ReactNode } from "react";
import { useNonce } from "./nonce";

/** A custom element of the widgets' script, with its markup for pages without JavaScript. */
export function widget(tag: string, attributes: Record<string, string>, children: ReactNode) {
  return createElement(tag, { ...attributes, suppressHydrationWarning: true }, children);
}

/**
 * A page reached by a client-side navigation gets no server-written script: load it here, with the
 * document's nonce, which the widgets give their `<style>` (the page's CSP refuses un-nonced styles).
 */
export function useWidgetsScript(src: string) {
  const nonce = useNonce();
  useEffect(() => {
    if (customElements.get("crib-search-box") || document.querySelector(`script[src="${src}"]`)) return;
    const script = document.createElement("script");
    script.src = src;
    if (nonce) script.nonce = nonce;
    document.body.append(script);
  }, [src, nonce]);
}
