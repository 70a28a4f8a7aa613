import { describe, expect, it } from "vitest";
import { contentDisposition } from "./content-disposition.server";

describe("contentDisposition", () => {
  it("gives an ASCII name as it is, which every client reads", () => {
    expect(contentDisposition("all-results-2026-11-23.csv")).toBe('attachment; filename="all-results-2026-11-23.csv"');
  });

  it("gives an ASCII fallback and the exact UTF-8 name for a unicode name", () => {
    const name = "bom-kühlschrank-冷蔵庫-2026-11-23.csv";
    const header = contentDisposition(name);
    const fallback = /; filename="([^"]*)";/.exec(header)?.[1];
    const encoded = /; filename\*=UTF-8''(\S+)$/.exec(header)?.[1];

    expect(header.startsWith("attachment; ")).toBe(true);
    expect(fallback).toBe("bom-kuhlschrank-___-2026-11-23.csv");
    expect(encoded).toBe("bom-k%C3%BChlschrank-%E5%86%B7%E8%94%B5%E5%BA%AB-2026-11-23.csv");
    expect(decodeURIComponent(encoded ?? "")).toBe(name);
    // The whole header value must be ASCII, or the Headers API rejects it.
    expect(header).toMatch(/^[\x20-\x7E]+$/);
  });

  it("replaces quotes, backslashes and control characters in the fallback", () => {
    const header = contentDisposition('a"b\\c\r\nd.csv');
    expect(header).toContain('filename="a_b_c__d.csv"');
    // The library reads a backslash as a path separator and keeps only the last part: no path reaches the client.
    expect(header).toContain("filename*=UTF-8''c%0D%0Ad.csv");
    expect(() => new Headers({ "Content-Disposition": header })).not.toThrow();
  });

  it("percent-encodes the characters RFC 5987 does not allow bare", () => {
    expect(contentDisposition("it's (1)*-é.csv")).toContain("filename*=UTF-8''it%27s%20%281%29%2A-%C3%A9.csv");
  });

  it("writes an emoji as one placeholder and survives a lone surrogate", () => {
    expect(contentDisposition("🔧.csv")).toContain('filename="_.csv"');
    expect(contentDisposition("a\uD800.csv")).toContain("filename*=UTF-8''a%EF%BF%BD.csv");
  });
});
