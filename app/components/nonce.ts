import { createContext, useContext } from "react";

/** The Content-Security-Policy nonce of the document being rendered (set by entry.server). */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
