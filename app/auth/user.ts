/**
 * The signed-in user (core-search §3 "Current user"), read from the ID token's claims and the
 * identity provider's userinfo answer.
 */
export interface User {
  id: string;
  email: string | null;
  /**
   * The name to show: `name`, else given plus family name, else `preferred_username`, else the
   * email, else "Signed in"; never the subject, which is often an opaque number.
   */
  name: string;
  firstName: string | null;
  lastName: string | null;
  groups: string[];
  roles: string[];
}

/** What the header says of a user whose provider gave no name, user name or email. */
export const SIGNED_IN = "Signed in";

const text = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value.trim() : null);

const list = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v !== "").slice(0, 100) : text(value) ? [String(value)] : [];

/** The user of a set of OIDC claims; `sub` is required (the caller has checked it). */
export function userFromClaims(claims: Record<string, unknown>): User {
  const id = String(claims.sub);
  const email = text(claims.email);
  const firstName = text(claims.given_name);
  const lastName = text(claims.family_name);
  const joined = [firstName, lastName].filter(Boolean).join(" ");
  return {
    id,
    email,
    name: text(claims.name) ?? (joined || (text(claims.preferred_username) ?? email ?? SIGNED_IN)),
    firstName,
    lastName,
    groups: list(claims.groups),
    roles: list(claims.roles),
  };
}
