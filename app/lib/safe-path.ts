/**
 * A redirect or Back target taken from a request: only a same-site path is accepted, never an
 * absolute URL, a protocol-relative `//host`, a backslash trick or control characters.
 */
export function safePath(value: string | null | undefined, fallback = "/crib-search"): string {
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

/** Path segment for an item number: slashes, spaces, `#`, `%` and unicode survive the round trip. */
export function itemPath(prefix: string, itemNumber: string): string {
  return `${prefix}/${encodeURIComponent(itemNumber)}`;
}

export function withBack(path: string, back: string): string {
  return `${path}?${new URLSearchParams({ back }).toString()}`;
}

/** A search platform's query id as it may travel in a link: short, letters, digits, `-` and `_`. */
export function isQueryId(value: string): boolean {
  return /^[\w-]{1,100}$/.test(value);
}

/**
 * Detail page link that remembers the search it came from and the item's place in it. A link from
 * a results row says so (`via=result`, which makes the visit a result click for the usage signals)
 * and names the search platform's query id when there is one (`qid`).
 */
export function productLink(itemNumber: string, back: string, position?: number, fromResults?: { queryId?: string }): string {
  const params = new URLSearchParams({ back });
  if (position !== undefined) params.set("pos", String(position));
  if (fromResults) {
    params.set("via", "result");
    if (fromResults.queryId && isQueryId(fromResults.queryId)) params.set("qid", fromResults.queryId);
  }
  return `${itemPath("/product", itemNumber)}?${params.toString()}`;
}
