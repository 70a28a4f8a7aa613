import { describe, expect, it } from "vitest";
import { ConfigError, cookiesSecure, parseConfig } from "./config.server";

describe("parseConfig", () => {
  it("applies the defaults of the design's table", () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      port: 3000,
      catalogDb: "data/catalog.db",
      sampleItems: 5000,
      fusion: null,
      sso: null,
      appUrl: "http://localhost:3000",
      exportLimit: 1000,
      signalsEnabled: true,
    });
  });

  it("names the variable that is wrong", () => {
    expect(() => parseConfig({ PORT: "eighty" })).toThrow(/PORT: expected a whole number/);
    expect(() => parseConfig({ EXPORT_LIMIT: "60000" })).toThrow(/EXPORT_LIMIT: at most 50000/);
    expect(() => parseConfig({ SIGNALS_ENABLED: "maybe" })).toThrow(/SIGNALS_ENABLED/);
    expect(() => parseConfig({ FUSION_URL: "ftp://x" })).toThrow(/FUSION_URL/);
    expect(() => parseConfig({ FUSION_URL: "https://fusion.example.com:6764" })).toThrow(/FUSION_APP: required/);
  });

  it("reports every bad variable at once", () => {
    try {
      parseConfig({ PORT: "0", SAMPLE_ITEMS: "-3" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/PORT/);
      expect((error as Error).message).toMatch(/SAMPLE_ITEMS/);
    }
  });

  it("configures Fusion with the query profile defaulting to the app id", () => {
    const config = parseConfig({ FUSION_URL: "https://fusion.example.com:6764/", FUSION_APP: "parts", FUSION_API_KEY: "k" });
    expect(config.fusion).toMatchObject({
      url: "https://fusion.example.com:6764",
      app: "parts",
      queryProfile: "parts",
      apiKey: "k",
      bomProfile: "ge-appliances-boms",
      assetBomProfile: "asset-boms",
      timeoutMs: 30000,
    });
  });

  it("trims the API key, as read from a secret file with its newline; a blank one is none", () => {
    expect(parseConfig({ FUSION_URL: "https://f.example.com", FUSION_APP: "parts", FUSION_API_KEY: "k3y\n" }).fusion?.apiKey).toBe("k3y");
    // Blank, like every other setting, means not set.
    expect(parseConfig({ FUSION_URL: "https://f.example.com", FUSION_APP: "parts", FUSION_API_KEY: " \n" }).fusion?.apiKey).toBeUndefined();
  });

  it("turns sign-in on only with issuer, client id and a session secret", () => {
    expect(parseConfig({}).sso).toBeNull();
    expect(() => parseConfig({ OIDC_ISSUER: "https://idp.example.com", OIDC_CLIENT_ID: "portal" })).toThrow(/SESSION_SECRET/);
    const config = parseConfig({
      OIDC_ISSUER: "https://idp.example.com",
      OIDC_CLIENT_ID: "portal",
      SESSION_SECRET: "0123456789abcdef0123",
    });
    expect(config.sso?.clientId).toBe("portal");
  });

  describe("a partial sign-in configuration stops the start, naming what is missing", () => {
    const ISSUER = "https://idp.example.com";
    const SECRET = "0123456789abcdef0123";
    const partial: [string, Record<string, string>, string[]][] = [
      ["the issuer alone", { OIDC_ISSUER: ISSUER }, ["OIDC_CLIENT_ID", "SESSION_SECRET"]],
      ["the issuer and a secret, no client id", { OIDC_ISSUER: ISSUER, SESSION_SECRET: SECRET }, ["OIDC_CLIENT_ID"]],
      ["the client id alone", { OIDC_CLIENT_ID: "portal" }, ["OIDC_ISSUER", "SESSION_SECRET"]],
      ["the client id and a secret, no issuer", { OIDC_CLIENT_ID: "portal", SESSION_SECRET: SECRET }, ["OIDC_ISSUER"]],
      ["the client secret alone", { OIDC_CLIENT_SECRET: "s3cret" }, ["OIDC_ISSUER", "OIDC_CLIENT_ID", "SESSION_SECRET"]],
      ["the session secret alone", { SESSION_SECRET: SECRET }, ["OIDC_ISSUER", "OIDC_CLIENT_ID"]],
    ];
    it.each(partial)("%s", (_what, env, missing) => {
      let message = "";
      try {
        parseConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        message = (error as Error).message;
      }
      for (const name of missing) expect(message).toMatch(new RegExp(`^  ${name}: required when single sign-on is on`, "m"));
      const named = ["OIDC_ISSUER", "OIDC_CLIENT_ID", "SESSION_SECRET"].filter((name) => new RegExp(`^  ${name}:`, "m").test(message));
      expect(named.sort()).toEqual([...missing].sort());
    });

    it("a misspelt sign-in variable is named, with the issuer's partner missing", () => {
      expect(() => parseConfig({ OIDC_ISSUER: ISSUER, OIDC_CLIENTID: "portal", SESSION_SECRET: SECRET })).toThrow(/OIDC_CLIENTID: not a setting[\s\S]*OIDC_CLIENT_ID: required/);
      expect(() => parseConfig({ OIDC_ISUER: ISSUER })).toThrow(/OIDC_ISUER: not a setting/);
    });

    it("OIDC_TIMEOUT_MS is a setting of its own, not a misspelling, and bounds every call to the provider", () => {
      const config = parseConfig({ OIDC_ISSUER: ISSUER, OIDC_CLIENT_ID: "portal", SESSION_SECRET: SECRET, OIDC_TIMEOUT_MS: "2500" });
      expect(config.sso?.timeoutMs).toBe(2500);
      expect(parseConfig({ OIDC_ISSUER: ISSUER, OIDC_CLIENT_ID: "portal", SESSION_SECRET: SECRET }).sso?.timeoutMs).toBe(10_000);
      expect(() => parseConfig({ OIDC_TIMEOUT_MS: "0" })).toThrow(/OIDC_TIMEOUT_MS: expected a positive number/);
    });

    it("blank variables count as unset: all blank is sign-in off", () => {
      expect(parseConfig({ OIDC_ISSUER: "", OIDC_CLIENT_ID: " ", OIDC_CLIENT_SECRET: "", SESSION_SECRET: "" }).sso).toBeNull();
    });

    it("a public client needs no client secret", () => {
      expect(parseConfig({ OIDC_ISSUER: ISSUER, OIDC_CLIENT_ID: "portal", SESSION_SECRET: SECRET }).sso).toMatchObject({ clientId: "portal", clientSecret: undefined });
    });
  });

  it("bounds signals.db by SIGNALS_MAX_ROWS, 2,000,000 unless set, at least 1000", () => {
    expect(parseConfig({}).signalsMaxRows).toBe(2_000_000);
    expect(parseConfig({ SIGNALS_MAX_ROWS: "50000" }).signalsMaxRows).toBe(50_000);
    expect(() => parseConfig({ SIGNALS_MAX_ROWS: "10" })).toThrow(/SIGNALS_MAX_ROWS: at least 1000/);
  });

  describe("DEBUG_PAGES", () => {
    const sso = { OIDC_ISSUER: "https://idp.example.com", OIDC_CLIENT_ID: "portal", SESSION_SECRET: "0123456789abcdef0123" };
    it("is off by default in production with sign-in on, and on when asked for", () => {
      expect(parseConfig({ ...sso, NODE_ENV: "production" }).debugPages).toBe(false);
      expect(parseConfig({ ...sso }).debugPages).toBe(false);
      expect(parseConfig({ ...sso, NODE_ENV: "production", DEBUG_PAGES: "true" }).debugPages).toBe(true);
    });

    it("is on by default without sign-in or outside production, and off when asked", () => {
      expect(parseConfig({ NODE_ENV: "production" }).debugPages).toBe(true);
      expect(parseConfig({ ...sso, NODE_ENV: "development" }).debugPages).toBe(true);
      expect(parseConfig({ DEBUG_PAGES: "false" }).debugPages).toBe(false);
    });
  });

  it("takes the facet panel and the display order from FACET_FIELDS and FIELD_DISPLAY_ORDER", () => {
    expect(parseConfig({})).not.toHaveProperty("facetFields");
    const config = parseConfig({ FACET_FIELDS: " manufacturer_s, status ,supplier ", FIELD_DISPLAY_ORDER: "item_number,item_description" });
    expect(config.facetFields).toEqual(["manufacturer_s", "attribute_status_s", "attribute_supplier_s"]);
    expect(config.displayOrder).toEqual(["item_number", "item_description"]);
    expect(() => parseConfig({ FACET_FIELDS: "category,colour_s" })).toThrow(/FACET_FIELDS: "colour_s" is not a facet field/);
    expect(() => parseConfig({ FACET_FIELDS: "category,category_s" })).toThrow(/FACET_FIELDS: a name is listed twice/);
    expect(() => parseConfig({ FACET_FIELDS: " , " })).toThrow(/FACET_FIELDS: expected a comma-separated list/);
    expect(() => parseConfig({ FIELD_DISPLAY_ORDER: "Item Number" })).toThrow(/FIELD_DISPLAY_ORDER: expected item field keys/);
  });

  it("takes the company site of the footer's links from SITE_URL", () => {
    expect(parseConfig({})).not.toHaveProperty("siteUrl");
    expect(parseConfig({ SITE_URL: "https://www.example.com/" }).siteUrl).toBe("https://www.example.com");
    expect(() => parseConfig({ SITE_URL: "javascript:alert(1)" })).toThrow(/SITE_URL: expected an http\(s\) URL/);
  });

  it("leads Contact Support to SUPPORT_URL, else the company site's /support, else the portal's own /support", () => {
    expect(parseConfig({}).supportUrl).toBe("/support");
    expect(parseConfig({ SITE_URL: "https://www.example.com/" }).supportUrl).toBe("https://www.example.com/support");
    expect(parseConfig({ SITE_URL: "https://www.example.com", SUPPORT_URL: "https://help.example.com/crib" }).supportUrl).toBe("https://help.example.com/crib");
    expect(parseConfig({ SUPPORT_URL: "/help" }).supportUrl).toBe("/help");
    for (const bad of ["javascript:alert(1)", "//evil.example", "/\\evil.example", "help"]) {
      expect(() => parseConfig({ SUPPORT_URL: bad }), bad).toThrow(/SUPPORT_URL/);
    }
  });

  it("treats empty variables as unset", () => {
    expect(parseConfig({ FUSION_URL: "", PORT: " " }).fusion).toBeNull();
    expect(parseConfig({ SIGNALS_ENABLED: "off" }).signalsEnabled).toBe(false);
  });
});

// Usage signals and the embeddable widgets (issue 22).
describe("signals and widgets settings", () => {
  it("keep signals 90 days and allow no other origin by default", () => {
    expect(parseConfig({})).toMatchObject({ signalsRetentionDays: 90, embedOrigins: [] });
  });

  it("read the widgets' origins as a list, and name a bad one", () => {
    expect(parseConfig({ EMBED_ORIGINS: "https://Intranet.example.com, http://127.0.0.1:8080" }).embedOrigins).toEqual([
      "https://intranet.example.com",
      "http://127.0.0.1:8080",
    ]);
    expect(() => parseConfig({ EMBED_ORIGINS: "https://intranet.example.com/path" })).toThrow(/EMBED_ORIGINS: expected origins/);
    expect(() => parseConfig({ SIGNALS_RETENTION_DAYS: "0" })).toThrow(/SIGNALS_RETENTION_DAYS/);
  });
});

// Several replicas behind a proxy (issue 27).
describe("replica settings", () => {
  it("trust no proxy, share nothing and stop at once by default", () => {
    const config = parseConfig({});
    expect(config).toMatchObject({ trustProxy: false, shutdownDrainMs: 0, rateLimits: { beaconsPerMinute: 300 } });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.keySecret).toBeUndefined();
    expect(config.replicaId).toMatch(/.+-\d+$/);
  });

  it.each([
    ["off", false],
    ["1", 1],
    ["loopback", ["loopback"]],
    ["10.0.0.0/8, 127.0.0.1,uniquelocal", ["10.0.0.0/8", "127.0.0.1", "uniquelocal"]],
    ["::1,fd00::/8", ["::1", "fd00::/8"]],
  ])("read TRUST_PROXY=%s as Express's trust proxy", (raw, expected) => {
    expect(parseConfig({ TRUST_PROXY: raw }).trustProxy).toEqual(expected);
  });

  it.each(["10.0.0.0/33", "proxy.example.com", "1.2.3", "99", "loopback,, nope"])("refuse TRUST_PROXY=%s, naming it", (raw) => {
    expect(() => parseConfig({ TRUST_PROXY: raw })).toThrow(/TRUST_PROXY/);
  });

  it.each(["true", "on", "yes"])("refuse TRUST_PROXY=%s: it would believe whatever address a client writes", (raw) => {
    expect(() => parseConfig({ TRUST_PROXY: raw })).toThrow(/TRUST_PROXY: true would believe any client's X-Forwarded-For/);
  });

  it.each([
    [undefined, "portal"],
    ["off", "off"],
    ["9464", { port: 9464 }],
    ["127.0.0.1:9464", { host: "127.0.0.1", port: 9464 }],
    ["[::1]:9464", { host: "::1", port: 9464 }],
  ])("read METRICS_LISTEN=%s", (raw, expected) => {
    expect(parseConfig(raw === undefined ? {} : { METRICS_LISTEN: raw }).metricsListen).toEqual(expected);
  });

  it.each(["on", "99999", "host:", ":9464", "a b:1"])("refuse METRICS_LISTEN=%s, naming it", (raw) => {
    expect(() => parseConfig({ METRICS_LISTEN: raw })).toThrow(/METRICS_LISTEN/);
  });

  it("log JSON at info unless told otherwise, and refuse an unknown format", () => {
    expect(parseConfig({}).log).toEqual({ format: "json", level: "info" });
    expect(parseConfig({ LOG_FORMAT: "pretty", LOG_LEVEL: "debug" }).log).toEqual({ format: "pretty", level: "debug" });
    expect(() => parseConfig({ LOG_FORMAT: "xml" })).toThrow(/LOG_FORMAT/);
  });

  it("take a postgres URL, a drain time and a replica name, and refuse others", () => {
    expect(parseConfig({ DATABASE_URL: "postgres://crib@db:5432/crib", SHUTDOWN_DRAIN_MS: "5000", REPLICA_ID: "web-1" })).toMatchObject({
      databaseUrl: "postgres://crib@db:5432/crib",
      shutdownDrainMs: 5000,
      replicaId: "web-1",
    });
    expect(() => parseConfig({ DATABASE_URL: "mysql://db/crib" })).toThrow(/DATABASE_URL: expected a postgres:\/\/ URL/);
    expect(() => parseConfig({ SHUTDOWN_DRAIN_MS: "-1" })).toThrow(/SHUTDOWN_DRAIN_MS/);
    expect(() => parseConfig({ REPLICA_ID: "a b" })).toThrow(/REPLICA_ID/);
  });

  it("derive every key from SESSION_SECRET, which comes with sign-in (alone it is a partial sign-in set-up)", () => {
    const sso = { OIDC_ISSUER: "https://idp.example", OIDC_CLIENT_ID: "crib", SESSION_SECRET: "a-long-enough-secret" };
    expect(parseConfig(sso).keySecret).toBe("a-long-enough-secret");
    expect(() => parseConfig({ SESSION_SECRET: "a-long-enough-secret" })).toThrow(/OIDC_ISSUER/);
  });
});

describe("cookiesSecure", () => {
  it("is true in production over https only", () => {
    expect(cookiesSecure({ NODE_ENV: "production", APP_URL: "https://crib.example" })).toBe(true);
    expect(cookiesSecure({ NODE_ENV: "production", APP_URL: "http://crib.example" })).toBe(false);
    expect(cookiesSecure({ NODE_ENV: "production" })).toBe(false);
    expect(cookiesSecure({ NODE_ENV: "development", APP_URL: "https://crib.example" })).toBe(false);
    // Unset is not production here, as the cookies have always read it.
    expect(cookiesSecure({ APP_URL: "https://crib.example" })).toBe(false);
  });
});
