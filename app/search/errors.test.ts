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

describe("the user's text of a platform's HTTP failure", () => {
  it("names the status, never what the platform wrote; operators keep the whole text", async () => {
    const { httpError } = await import("./engines/fusion/fusion-errors");
    const error = httpError(503, "java.lang.IllegalStateException: SolrCore is loading at /var/solr/data");
    expect(error.message).toBe("HTTP 503: java.lang.IllegalStateException: SolrCore is loading at /var/solr/data");
    expect(userMessageOf(error)).toBe("HTTP 503: Service Unavailable");
    expect(userMessageOf(httpError(599, "x"))).toBe("HTTP 599");
  });

  it("falls back on a timeout or an overload answered by HTTP, and on a redirect it will not follow", async () => {
    const { httpError } = await import("./engines/fusion/fusion-errors");
    expect(httpError(408, "x").kind).toBe("outage");
    expect(httpError(429, "x").kind).toBe("outage");
    expect(httpError(302, "Found").kind).toBe("configuration");
    expect(httpError(400, "x").kind).toBe("bad-request");
  });
});
