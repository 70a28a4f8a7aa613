/**
 * A redirect or Back target taken from a request: only a same-site path is accepted. The decision
 * is made on the path as a browser will resolve it (dot segments, percent-encoded dots), so that
 * nothing becomes a protocol-relative `//host` or a `/\host` after normalisation; absolute URLs,
 * schemes, backslashes and control characters are refused. Anything refused gives `fallback`.
 */
export function safePath(value: string | null | undefined, fallback: string): string {
  if (!value) return fallback;
  const trimmed = value.trim();
  if (!trimmed.startsWith("/")) return fallback;
  // Backslashes read as slashes in browsers' URL parsers; control characters are stripped by them.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(trimmed)) return fallback;
  let url: URL;
  try {
    url = new URL(trimmed, "http://same.invalid");
  } catch {
    return fallback;
  }
  if (url.origin !== "http://same.invalid") return fallback;
  // The resolved path must be one path from the root: not `//host`, not an encoded slash that a
  // second decoding would make one.
  if (url.pathname.startsWith("//") || /^\/(%2f|%5c)/i.test(url.pathname)) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** An image address a page may show: a path of this site, or an http(s) URL of an allowed origin. */
export function safeImageSrc(value: unknown, allowedOrigins: readonly string[]): string | null {
  if (typeof value !== "string" || value.trim() === "") return null;
  const src = value.trim();
  if (src.startsWith("/")) return safePath(src, "") || null;
  try {
    const url = new URL(src);
    return (url.protocol === "http:" || url.protocol === "https:") && allowedOrigins.includes(url.origin) ? url.toString() : null;
  } catch {
    return null;
  }
}
