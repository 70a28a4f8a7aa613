import { createCookie, type Cookie } from "@remix-run/node";
import { cookiesSecure } from "~/config.server";

/**
 * A cookie of the portal's own: kept from scripts (HttpOnly), sent on same-site navigations and
 * top-level links (SameSite=Lax), and Secure when the portal is served over https.
 */
export function portalCookie(name: string, options: { path: string; maxAge: number }): Cookie {
  return createCookie(name, {
    httpOnly: true,
    sameSite: "lax",
    secure: cookiesSecure(),
    ...options,
  });
}
