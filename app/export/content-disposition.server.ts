import contentDispositionHeader from "content-disposition";

// encodeURIComponent, which the library uses for `filename*`, throws on a lone surrogate.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Content-Disposition for a download (RFC 6266, written by `content-disposition`): the exact name
 * in RFC 5987 `filename*` whenever it is not plain ASCII, and an ASCII `filename` for old clients
 * (accents dropped, other non-ASCII, control characters, `"` and `\` → "_").
 */
export function contentDisposition(filename: string): string {
  const name = filename.replace(LONE_SURROGATE, "\uFFFD");
  const ascii = name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    // Code points, so an emoji becomes one "_" rather than two; CR/LF would end the header.
    .replace(/[^\x20-\x7E]|["\\]/gu, "_");
  return contentDispositionHeader(name, { fallback: ascii });
}
