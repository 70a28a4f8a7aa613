import { describe, expect, it } from "vitest";
import { safePath } from "./safe-path";

const FALLBACK = "/crib-search";
const SAME = "http://same.invalid";

/** What a browser would do with the answer: it must stay on this site, whatever went in. */
function staysOnSite(path: string): void {
  expect(path.startsWith("/")).toBe(true);
  expect(path.startsWith("//")).toBe(false);
  expect(path.startsWith("/\\")).toBe(false);
  expect(new URL(path, SAME).origin).toBe(SAME);
}

describe("safePath", () => {
  it.each([
    "/",
    "/crib-search",
    "/crib-search/search?q=pump",
    "/crib-search/search?q=pump&f=org_code%3AMON&f=-category%3AValves&sort=item_number_s%20asc&page=3#results",
    "/product/A%2FB%201%23%25?back=%2Fcrib-search%2Fsearch%3Fq%3Dpump&pos=4",
    "/where-used/MRO-3027901?asset-page=2&pm-sort=asset_number%20desc",
    // Encoded slashes in a query are data.
    "/crib-search/search?q=%2F%2Fevil.example",
  ])("keeps the same-site path %s exactly", (path) => {
    expect(safePath(path, FALLBACK)).toBe(path);
    staysOnSite(path);
  });

  it("trims surrounding whitespace of an accepted path", () => {
    expect(safePath("  /crib-search/search?q=pump \n", FALLBACK)).toBe("/crib-search/search?q=pump");
  });

  it("answers the fallback for nothing, and a fallback of the caller's choosing", () => {
    expect(safePath(null, FALLBACK)).toBe(FALLBACK);
    expect(safePath(undefined, FALLBACK)).toBe(FALLBACK);
    expect(safePath("", FALLBACK)).toBe(FALLBACK);
    expect(safePath("   ", FALLBACK)).toBe(FALLBACK);
    expect(safePath("//evil.example", "/product/X")).toBe("/product/X");
  });

  it.each([
    // Not a path.
    "crib-search",
    "evil.example/x",
    "?q=pump",
    "#top",
    // Other sites and schemes.
    "http://evil.example/",
    "https://evil.example/crib-search",
    "http:evil.example",
    "https:/evil.example",
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "mailto:someone@evil.example",
    // Protocol-relative and backslash tricks, with whitespace around them.
    "//evil.example",
    "///evil.example",
    "//evil.example/crib-search",
    "/\\evil.example",
    "\\\\evil.example",
    "\\/evil.example",
    "/\\/evil.example",
    " //evil.example",
    "\t//evil.example",
    "\n/\\evil.example",
    "\u00a0//evil.example",
    "\u3000//evil.example",
    // Control characters, which browsers drop, leaving `//`.
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r/evil.example",
    "/\u0000/evil.example",
    "/\u007f/evil.example",
    // A backslash anywhere.
    "/crib-search\\..\\evil",
    "/crib-search/search?q=a\\b",
    // A path that starts with an encoded slash or backslash: one more decoding makes it `//host`.
    "/%2F/evil.example",
    "/%5Cevil.example",
    // Encoded forms of the above are not paths either.
    "%2F%2Fevil.example",
    "%2f%5cevil.example",
    "http%3A%2F%2Fevil.example",
  ])("answers the fallback for %j", (value) => {
    expect(safePath(value, FALLBACK)).toBe(FALLBACK);
  });

  // Dot segments, plain or encoded, that a browser resolves to `//host`.
  it.each([
    "/.//evil.example",
    "/x/..//evil.example",
    "/%2e//evil.example",
    "/%2E%2E//evil.example",
    "/x/%2e%2e//evil.example",
    "/crib-search/..//evil.example/login",
    "/crib-search/search/../..//evil.example",
  ])(
    "answers the fallback for the dot-segment variant %j",
    (value) => {
      const answer = safePath(value, FALLBACK);
      staysOnSite(answer);
      expect(answer).toBe(FALLBACK);
    },
  );

  it("resolves harmless dot segments to the path they name", () => {
    expect(safePath("/crib-search/./search?q=pump", FALLBACK)).toBe("/crib-search/search?q=pump");
    expect(safePath("/product/x/../y", FALLBACK)).toBe("/product/y");
  });
});
