import { describe, expect, it } from "vitest";
import { OPEN_REDIRECTS } from "../../tests/open-redirects";
import { safePath } from "./safe-path";

describe("safePath refuses every open-redirect payload", () => {
  it.each(OPEN_REDIRECTS.map((p) => [JSON.stringify(p), p]))("%s", (_shown, payload) => {
    expect(safePath(payload, "/home")).toBe("/home");
  });

  it("keeps a same-site path with its query", () => {
    expect(safePath("/crib-search/search?q=pump", "/home")).toBe("/crib-search/search?q=pump");
  });
});
