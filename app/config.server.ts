import { isIP } from "node:net";
import os from "node:os";
import { z } from "zod";
import { SUPPORT_PATH } from "./search/paths";
import type { BreakerSettings, FusionSettings } from "./search/fusion-settings";
import { ALL_FACET_FIELDS } from "./search/search-config";

const booleanFromEnv = z
  .enum(["true", "false", "1", "0", "yes", "no", "on", "off"], {
    error: "expected true or false",
  })
  .transform((v) => ["true", "1", "yes", "on"].includes(v));

const optionalUrl = z
  .url({ protocol: /^https?$/, error: "expected an http(s) URL" })
  .transform((v) => v.replace(/\/+$/, ""))
  .optional();

const positiveInt = (fallback: number, max?: number) => {
  let schema = z.coerce.number({ error: "expected a whole number" }).int("expected a whole number").positive("expected a positive number");
  if (max !== undefined) schema = schema.max(max, `at most ${max}`);
  return schema.default(fallback);
};

/** A comma-separated list: trimmed, blanks dropped, duplicates refused. */
const commaList = (item: z.ZodType<string, string>) =>
  z
    .string()
    .transform((text) => text.split(",").map((part) => part.trim()).filter(Boolean))
    .pipe(z.array(item).min(1, "expected a comma-separated list").max(60, "at most 60 names"))
    .refine((list) => new Set(list).size === list.length, "a name is listed twice");

/** A facet of the spec's list (§3), by index field name (`attribute_status_s`, `status_s`) or key (`status`). */
const facetName = z.string().transform((name, ctx) => {
  const field = ALL_FACET_FIELDS.find((f) => f === name || f === `attribute_${name}` || f.replace(/^attribute_/, "").replace(/_[a-z]+$/, "") === name);
  if (!field) {
    ctx.addIssue({ code: "custom", message: `"${name}" is not a facet field (spec §3's list, e.g. category_s or category)` });
    return z.NEVER;
  }
  return field;
});

/**
 * TRUST_PROXY as Express's `trust proxy` takes it: off, `true` (every hop), a hop count, or a
 * comma-separated list of addresses, CIDR ranges and the names `loopback`, `linklocal`, `uniquelocal`.
 */
const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);
function isProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address, bits, ...rest] = entry.split("/");
  const family = isIP(address ?? "");
  if (!family || rest.length) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}
const trustProxy = z.string().transform((raw, ctx): TrustProxy => {
  const text = raw.trim().toLowerCase();
  if (["false", "off", "no", "0"].includes(text)) return false;
  if (["true", "on", "yes"].includes(text)) {
    // Express's `true` believes the left-most address of X-Forwarded-For, which any client writes.
    ctx.addIssue({ code: "custom", message: "true would believe any client's X-Forwarded-For; name the proxies' addresses (e.g. 10.0.0.5) or give a hop count (1: one proxy in front)" });
    return z.NEVER;
  }
  if (/^\d+$/.test(text)) {
    if (Number(text) > 20) ctx.addIssue({ code: "custom", message: "a hop count is at most 20" });
    return Number(text);
  }
  const entries = text.split(",").map((part) => part.trim()).filter(Boolean);
  const bad = entries.filter((entry) => !isProxyEntry(entry));
  if (entries.length === 0 || bad.length) {
    ctx.addIssue({ code: "custom", message: `expected true, a hop count, or addresses, CIDR ranges, loopback, linklocal, uniquelocal; not "${bad.join(",") || raw}"` });
    return z.NEVER;
  }
  return entries;
});
export type TrustProxy = false | number | string[];

/** METRICS_LISTEN: `off`, or a port or host:port of a listener of their own; unset, /metrics on the portal's port. */
const metricsListen = z.string().trim().transform((raw, ctx): MetricsListen => {
  if (["off", "false", "no", "0"].includes(raw.toLowerCase())) return "off";
  const match = /^(?:(\[[0-9a-f:]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/i.exec(raw);
  const port = Number(match?.[2]);
  if (!match || port < 1 || port > 65535) {
    ctx.addIssue({ code: "custom", message: `expected off, a port (9464) or host:port (127.0.0.1:9464), not "${raw}"` });
    return z.NEVER;
  }
  return { port, ...(match[1] ? { host: match[1].replace(/^\[|\]$/g, "") } : {}) };
});
export type MetricsListen = "portal" | "off" | { host?: string; port: number };

const databaseUrl = z
  .string()
  .trim()
  .refine((value) => {
    try {
      return ["postgres:", "postgresql:"].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, "expected a postgres:// URL");

/** Every setting of DESIGN.md's configuration table, read once from the environment. */
export const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: positiveInt(3000, 65535),
    CATALOG_DB: z.string().min(1).default("data/catalog.db"),
    SAMPLE_ITEMS: positiveInt(5000, 5_000_000),
    FUSION_URL: optionalUrl,
    FUSION_APP: z.string().min(1).optional(),
    FUSION_QUERY_PROFILE: z.string().min(1).optional(),
    FUSION_COLLECTION: z.string().min(1).optional(),
    // Keys read from files (mounted secrets) often end with a newline, which no header may hold.
    FUSION_API_KEY: z.string().trim().min(1).optional(),
    FUSION_BOM_PROFILE: z.string().min(1).default("ge-appliances-boms"),
    FUSION_ASSET_BOM_PROFILE: z.string().min(1).default("asset-boms"),
    FUSION_TIMEOUT_MS: positiveInt(30000, 600_000),
    FUSION_BREAKER_THRESHOLD: positiveInt(3, 100),
    FUSION_BREAKER_COOLDOWN_MS: positiveInt(30000, 3_600_000),
    BACKEND_URL: optionalUrl,
    OIDC_ISSUER: optionalUrl,
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    // The hard limit of every call to the identity provider (discovery, token, userinfo, keys).
    OIDC_TIMEOUT_MS: positiveInt(10_000, 120_000),
    APP_URL: z.url({ protocol: /^https?$/, error: "expected an http(s) URL" }).default("http://localhost:3000"),
    SESSION_SECRET: z.string().min(16, "at least 16 characters").optional(),
    EXPORT_LIMIT: positiveInt(1000, 50_000),
    EXPORT_CAP: positiveInt(50_000, 1_000_000),
    SIGNALS_ENABLED: booleanFromEnv.default(true),
    TYPEAHEAD_ENABLED: booleanFromEnv.default(false),
    // Usage signals and the widgets (issue 22).
    SIGNALS_RETENTION_DAYS: positiveInt(90, 3650),
    // The most signals signals.db keeps; beyond it the oldest go, counted on /analytics.
    SIGNALS_MAX_ROWS: positiveInt(2_000_000, 1_000_000_000).pipe(z.number().min(1000, "at least 1000")),
    EMBED_ORIGINS: commaList(z.string().regex(/^https?:\/\/[a-z0-9.-]+(:\d+)?$/i, "expected origins such as https://intranet.example.com")).optional(),
    // Unset: on, except in production with sign-in on (docs/decisions/023).
    DEBUG_PAGES: booleanFromEnv.optional(),
    // Per client and minute; 0 turns a limit off.
    RATE_LIMIT_PER_MINUTE: z.coerce.number({ error: "expected a whole number" }).int().min(0).max(1_000_000).default(1200),
    SIGN_IN_RATE_LIMIT_PER_MINUTE: z.coerce.number({ error: "expected a whole number" }).int().min(0).max(100_000).default(30),
    IMAGE_HOSTS: commaList(z.string().regex(/^https?:\/\/[a-z0-9.-]+(:\d+)?$/i, "expected origins such as https://images.example.com")).optional(),
    // The facet panel, in order, and the order in which an item's fields are shown (spec §3).
    FACET_FIELDS: commaList(facetName).optional(),
    FIELD_DISPLAY_ORDER: commaList(z.string().regex(/^[a-z][a-z0-9_]*$/, "expected item field keys such as item_number")).optional(),
    // The company site the footer's links point to.
    SITE_URL: optionalUrl,
    // Where Contact Support leads (the footer, the sign-in page): an http(s) URL or a path of the portal.
    SUPPORT_URL: z.union([z.string().regex(/^\/(?![/\\])\S*$/, "expected a path such as /support"), z.url({ protocol: /^https?$/, error: "expected an http(s) URL or a path such as /support" })]).optional(),
    // Several replicas behind a proxy (issue 27).
    TRUST_PROXY: trustProxy.optional(),
    DATABASE_URL: databaseUrl.optional(),
    BEACON_RATE_LIMIT_PER_MINUTE: z.coerce.number({ error: "expected a whole number" }).int().min(0).max(100_000).default(300),
    SHUTDOWN_DRAIN_MS: z.coerce.number({ error: "expected a whole number" }).int().min(0).max(600_000).default(0),
    METRICS_LISTEN: metricsListen.optional(),
    LOG_FORMAT: z.enum(["json", "pretty"], { error: "expected json or pretty" }).default("json"),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], { error: "expected error, warn, info, debug or silent" }).default("info"),
    REPLICA_ID: z.string().trim().regex(/^[A-Za-z0-9._:-]{1,64}$/, "expected up to 64 letters, digits and . _ : -").optional(),
  })
  .superRefine((env, ctx) => {
    if (env.FUSION_URL && !env.FUSION_APP) {
      ctx.addIssue({ code: "custom", path: ["FUSION_APP"], message: "required when FUSION_URL is set" });
    }
    // Sign-in fails closed: any of its variables set means sign-in was meant to be on, so a missing
    // (or misspelt) partner stops the start instead of serving every page to anyone.
    const given = SIGN_IN_VARIABLES.filter((name) => env[name] !== undefined);
    if (given.length > 0) {
      for (const name of SIGN_IN_REQUIRED) {
        if (env[name] === undefined) {
          ctx.addIssue({ code: "custom", path: [name], message: `required when single sign-on is on (${given.join(", ")} ${given.length === 1 ? "is" : "are"} set); set it, or unset every sign-in variable to turn sign-in off` });
        }
      }
    }
  });

/** Every variable of sign-in; none set is sign-in off. The client secret is optional (public clients). */
const SIGN_IN_VARIABLES = ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET", "SESSION_SECRET"] as const;
/** Names of the form `OIDC_…` that are settings without turning sign-in on. */
const OTHER_OIDC_SETTINGS = ["OIDC_TIMEOUT_MS"];
const SIGN_IN_REQUIRED = ["OIDC_ISSUER", "OIDC_CLIENT_ID", "SESSION_SECRET"] as const;

/**
 * Variables that look like sign-in's but are not one of its names (`OIDC_CLIENTID`): a misspelt
 * name would otherwise be ignored in silence, with its partner "missing".
 */
function unknownSignInVariables(env: Record<string, string>): string[] {
  return Object.keys(env).filter((name) => /^OIDC_/i.test(name) && !(SIGN_IN_VARIABLES as readonly string[]).includes(name) && !OTHER_OIDC_SETTINGS.includes(name));
}

export interface AppConfig {
  port: number;
  catalogDb: string;
  sampleItems: number;
  /** The search platform; the registry hands it to the Fusion engine. */
  fusion: (FusionSettings & BreakerSettings) | null;
  backendUrl?: string;
  sso: { issuer: string; clientId: string; clientSecret?: string; sessionSecret: string; timeoutMs: number } | null;
  appUrl: string;
  exportLimit: number;
  /** The most records any export writes. */
  exportCap: number;
  signalsEnabled: boolean;
  /** Days forwarded signals are kept for /analytics. */
  signalsRetentionDays: number;
  /** The most signals kept; the oldest beyond it are removed and counted. */
  signalsMaxRows: number;
  /** Origins whose pages may use the widgets against /api (CORS). */
  embedOrigins: string[];
  /** The spec keeps type-ahead off; the suggest call exists behind this switch. */
  typeaheadEnabled: boolean;
  /** /debug and /okta-debug (secrets are always redacted); unset, off in production with sign-in on. */
  debugPages: boolean;
  rateLimits: { requestsPerMinute: number; signInsPerMinute: number; beaconsPerMinute: number };
  /** Which proxies' X-Forwarded-For names the client (Express's `trust proxy`); false trusts none. */
  trustProxy: TrustProxy;
  /** The shared store of several replicas; unset, SQLite files beside the catalogue. */
  databaseUrl?: string;
  /**
   * Every key the portal derives (the signals cookie's), the same on every replica; from
   * SESSION_SECRET when set.
   */
  keySecret?: string;
  /** How long a stopping server keeps answering, not ready, so a load balancer notices first. */
  shutdownDrainMs: number;
  /** This replica's name in the probes and the log. */
  replicaId: string;
  /** Where GET /metrics is served: on the portal's port, on a listener of its own, or nowhere. */
  metricsListen: MetricsListen;
  log: { format: "json" | "pretty"; level: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent" };
  /** Origins item images may come from besides the portal. */
  imageHosts: string[];
  /** Unset: the spec's default five facets and display order. */
  facetFields?: string[];
  displayOrder?: string[];
  /** The company site the footer links to (support, warranty, products, policies, social); unset, the footer has none. */
  siteUrl?: string;
  /** Where Contact Support leads: SUPPORT_URL, else the company site's /support, else the portal's own /support page. */
  supportUrl: string;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Treats empty variables as unset, as shells and .env files commonly leave them. */
function definedOnly(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1].trim() !== ""),
  );
}

export function parseConfig(env: Record<string, string | undefined>): AppConfig {
  const defined = definedOnly(env);
  const result = EnvSchema.safeParse(defined);
  const unknown = unknownSignInVariables(defined).map((name) => `  ${name}: not a setting of the portal (the sign-in settings are ${[...SIGN_IN_VARIABLES, ...OTHER_OIDC_SETTINGS].join(", ")})`);
  if (!result.success || unknown.length > 0) {
    // The variable's name, not the place in its list of an item that is wrong.
    const lines = (result.success ? [] : result.error.issues).map((issue) => `  ${String(issue.path[0] ?? "environment")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${[...unknown, ...lines].join("\n")}`);
  }
  const e = result.data;
  const sso =
    e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.SESSION_SECRET
      ? { issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET, sessionSecret: e.SESSION_SECRET, timeoutMs: e.OIDC_TIMEOUT_MS }
      : null;
  return {
    port: e.PORT,
    catalogDb: e.CATALOG_DB,
    sampleItems: e.SAMPLE_ITEMS,
    fusion:
      e.FUSION_URL && e.FUSION_APP
        ? {
            url: e.FUSION_URL,
            app: e.FUSION_APP,
            queryProfile: e.FUSION_QUERY_PROFILE ?? e.FUSION_APP,
            collection: e.FUSION_COLLECTION,
            apiKey: e.FUSION_API_KEY,
            bomProfile: e.FUSION_BOM_PROFILE,
            assetBomProfile: e.FUSION_ASSET_BOM_PROFILE,
            timeoutMs: e.FUSION_TIMEOUT_MS,
            breakerThreshold: e.FUSION_BREAKER_THRESHOLD,
            breakerCooldownMs: e.FUSION_BREAKER_COOLDOWN_MS,
          }
        : null,
    backendUrl: e.BACKEND_URL,
    sso,
    appUrl: e.APP_URL.replace(/\/+$/, ""),
    exportLimit: e.EXPORT_LIMIT,
    exportCap: e.EXPORT_CAP,
    signalsEnabled: e.SIGNALS_ENABLED,
    signalsRetentionDays: e.SIGNALS_RETENTION_DAYS,
    signalsMaxRows: e.SIGNALS_MAX_ROWS,
    embedOrigins: (e.EMBED_ORIGINS ?? []).map((origin) => origin.toLowerCase()),
    typeaheadEnabled: e.TYPEAHEAD_ENABLED,
    // The pages show who is signed in and the issuer's set-up: in production, with sign-in on, they
    // are there only when asked for.
    debugPages: e.DEBUG_PAGES ?? !(e.NODE_ENV === "production" && sso !== null),
    rateLimits: { requestsPerMinute: e.RATE_LIMIT_PER_MINUTE, signInsPerMinute: e.SIGN_IN_RATE_LIMIT_PER_MINUTE, beaconsPerMinute: e.BEACON_RATE_LIMIT_PER_MINUTE },
    trustProxy: e.TRUST_PROXY ?? false,
    ...(e.DATABASE_URL ? { databaseUrl: e.DATABASE_URL } : {}),
    ...(e.SESSION_SECRET ? { keySecret: e.SESSION_SECRET } : {}),
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    replicaId: e.REPLICA_ID ?? `${os.hostname()}-${process.pid}`,
    metricsListen: e.METRICS_LISTEN ?? "portal",
    log: { format: e.LOG_FORMAT, level: e.LOG_LEVEL },
    imageHosts: e.IMAGE_HOSTS ?? [],
    ...(e.FACET_FIELDS ? { facetFields: e.FACET_FIELDS } : {}),
    ...(e.FIELD_DISPLAY_ORDER ? { displayOrder: e.FIELD_DISPLAY_ORDER } : {}),
    ...(e.SITE_URL ? { siteUrl: e.SITE_URL } : {}),
    supportUrl: e.SUPPORT_URL ?? `${e.SITE_URL ?? ""}${SUPPORT_PATH}`,
  };
}

/**
 * Whether the portal's own cookies are Secure: in production, when the portal is served over https.
 * Read from the environment as it is (an unset NODE_ENV is not production here), not from the parsed
 * configuration, since the cookies are made when their modules load, before the configuration is
 * parsed, and a bad setting elsewhere must not stop that.
 */
export function cookiesSecure(env: Record<string, string | undefined> = process.env): boolean {
  return env.NODE_ENV === "production" && (env.APP_URL ?? "").startsWith("https:");
}

let cached: AppConfig | undefined;

/** The configuration, parsed from process.env on first use; a bad value throws ConfigError. */
export function getConfig(): AppConfig {
  cached ??= parseConfig(process.env);
  return cached;
}
