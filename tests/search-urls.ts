/** Search-page URLs as the browser and HTTP suites build and compare them; no test runner imported. */

export const SEARCH_PATH = "/crib-search/search";
export const HOME_PATH = "/crib-search";

/** A search URL from parameters (repeated parameters as arrays), in the order given. */
export function searchUrl(params: Record<string, string | number | (string | number)[]> = {}, path = SEARCH_PATH): string {
  const sp = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const v of Array.isArray(value) ? value : [value]) sp.append(name, String(v));
  }
  const qs = sp.toString();
  return qs ? `${path}?${qs}` : path;
}

/** Matches a URL whose path is `path` and whose query parameters are exactly `params` (any order). */
export function urlWith(path: string, params: [string, string][] = []): (url: URL) => boolean {
  const want = params.map(([n, v]) => `${n}=${v}`).sort().join("&");
  return (url: URL) => url.pathname === path && [...url.searchParams].map(([n, v]) => `${n}=${v}`).sort().join("&") === want;
}
