import { describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";
import { REDACTED, redact, redactUrlCredentials } from "./debug.server";

describe("the debug pages' redaction", () => {
  it("hides the credentials inside every configured address, keeping the rest of it", () => {
    const config = parseConfig({
      FUSION_URL: "http://svc:PASS@fusion.example.com:6764",
      FUSION_APP: "parts",
      BACKEND_URL: "https://reader:s3cr%40t@backend.example.com/api",
      SITE_URL: "https://only-user@www.example.com",
    });
    const text = JSON.stringify(redact(config));
    for (const secret of ["PASS", "svc:", "s3cr", "reader", "only-user"]) expect(text).not.toContain(secret);
    expect(text).toContain(`http://${REDACTED}@fusion.example.com:6764`);
    expect(text).toContain(`https://${REDACTED}@backend.example.com/api`);
  });

  it.each([
    ["a password with a stray @", "http://svc:p@ss@fusion.example.com/x", `http://${REDACTED}@fusion.example.com/x`],
    ["an address inside a message", 'Discovery failed: fetch to "https://a:b@idp.example.com/.well-known" failed', `Discovery failed: fetch to "https://${REDACTED}@idp.example.com/.well-known" failed`],
    ["several addresses", "postgres://u:p@db/x and amqp://q:r@mq:5672", `postgres://${REDACTED}@db/x and amqp://${REDACTED}@mq:5672`],
    ["an address without credentials", "https://fusion.example.com/api?x=a@b", "https://fusion.example.com/api?x=a@b"],
    ["an email address", "pat@example.test", "pat@example.test"],
  ])("redacts %s", (_what, text, expected) => {
    expect(redactUrlCredentials(text)).toBe(expected);
  });

  it("still redacts secrets by their field's name", () => {
    expect(redact({ apiKey: "k", nested: { clientSecret: "s", url: "http://x:y@h" } })).toEqual({ apiKey: REDACTED, nested: { clientSecret: REDACTED, url: `http://${REDACTED}@h` } });
  });
});
