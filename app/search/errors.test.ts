import { describe, expect, it } from "vitest";
import { SearchError, userMessageOf } from "./errors";

describe("userMessageOf", () => {
  it("shows the spec's text of an outage or a configuration error", () => {
    expect(userMessageOf(new SearchError("Request timeout - Fusion service may be slow or unreachable"))).toBe(
      "Request timeout - Fusion service may be slow or unreachable",
    );
    expect(userMessageOf(new SearchError("Authentication failed - API key may be invalid or expired", "configuration"))).toMatch(/^Authentication failed/);
  });

  it("never shows what the engine said about a request it refused, nor an unknown error", () => {
    expect(userMessageOf(new SearchError("HTTP 400: org.apache.solr.search.SyntaxError: Cannot parse 'x:'", "bad-request"))).toBe("Search failed");
    expect(userMessageOf(new Error("SQLITE_CORRUPT: /var/lib/catalog.db"))).toBe("Search failed");
  });

  it("gives each kind its status", () => {
    expect(new SearchError("x").status).toBe(503);
    expect(new SearchError("x", "configuration").status).toBe(502);
    expect(new SearchError("x", "not-found").status).toBe(404);
    expect(new SearchError("x", "bad-request").status).toBe(400);
  });
});
