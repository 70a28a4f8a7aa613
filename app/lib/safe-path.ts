/**
 * A redirect or Back target taken from a request: only a same-site path is accepted, never an
 * absolute URL, a protocol-relative `//host`, a backslash trick or control characters.
 */
export function safePath(value: string | null | undefined, fallback: string): string {
  if (!value) return fallback;
  const trimmed = value.trim();
  if (!trimmed.startsWith("/") || trimmed.startsWith("//") || trimmed.startsWith("/\\")) return fallback;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(trimmed)) return fallback;
  try {
    const url = new URL(trimmed, "http://same.invalid");
    if (url.origin !== "http://same.invalid") return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}
