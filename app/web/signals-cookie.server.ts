import { parse, serialize } from "cookie";
import { sign, unsign } from "cookie-signature";

/**
 * The signals session cookie (decision 018): a random id, signed with `cookie-signature` so that a
 * made-up id is no session, read and written with `cookie`.
 */

const YEAR = 365 * 86_400;
const SESSION_ID = /^[A-Za-z0-9_-]{22}$/;

/** The session id of the cookie `name` in a Cookie header, or null when there is none signed with `secret`. */
export function readSessionCookie(cookieHeader: string | null | undefined, name: string, secret: string): string | null {
  const value = parse(cookieHeader ?? "")[name];
  if (!value) return null;
  const id = unsign(value, secret);
  return id !== false && SESSION_ID.test(id) ? id : null;
}

/** The Set-Cookie value that starts session `id`: for the whole site, a year, HttpOnly, SameSite=Lax; Secure for a `__Host-` name. */
export function sessionCookie(name: string, id: string, secret: string): string {
  return serialize(name, sign(id, secret), {
    path: "/",
    maxAge: YEAR,
    httpOnly: true,
    sameSite: "lax",
    secure: name.startsWith("__Host-"),
  });
}
