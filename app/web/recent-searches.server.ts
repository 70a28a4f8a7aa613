import { portalCookie } from "~/web/cookie.server";

export const RECENT_LIMIT = 10;

const cookie = portalCookie("recent-searches", { path: "/", maxAge: 60 * 60 * 24 * 365 });

function clean(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((q): q is string => typeof q === "string" && q.length > 0 && q.length <= 500).slice(0, RECENT_LIMIT);
}

export async function readRecentSearches(request: Request): Promise<string[]> {
  try {
    return clean(await cookie.parse(request.headers.get("Cookie")));
  } catch {
    return [];
  }
}

/** The last 10 distinct queries, newest first. */
export function addRecentSearch(recent: string[], query: string): string[] {
  return [query, ...recent.filter((q) => q !== query)].slice(0, RECENT_LIMIT);
}

/** Browsers drop a cookie over 4 KB whole (the newest search with it): older searches give way first. */
export const MAX_COOKIE_BYTES = 4000;

export async function serializeRecentSearches(recent: string[]): Promise<string> {
  for (let kept = recent.length; kept > 0; kept--) {
    const header = await cookie.serialize(recent.slice(0, kept));
    if (new TextEncoder().encode(header).length <= MAX_COOKIE_BYTES) return header;
  }
  return cookie.serialize([]);
}
