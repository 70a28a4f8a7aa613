import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3100);
export const BASE_URL = `http://127.0.0.1:${PORT}`;
/**
 * A third portal whose search platform is never there (nothing listens on its port) and whose backup
 * is the first portal's /api (BACKEND_URL): every search is answered by the product backend.
 */
export const BACKEND_MODE_URL = `http://127.0.0.1:${PORT + 2}`;
/** A port of the tests' range that no test server takes: Fusion's connections are refused there. */
const NOBODY_URL = `http://127.0.0.1:${PORT + 95}`;

/**
 * The Fusion journeys steer their stand-in (faults, kills), so each browser project has its own:
 * a portal configured with Fusion, the stand-in, and its supervisor (tests/fusion-stand-in/supervisor.ts:
 * POST /kill, POST /start, GET /status). The two projects never wait for each other.
 */
export interface FusionRig {
  /** The portal whose search platform is the stand-in. */
  portalUrl: string;
  standInUrl: string;
  controlUrl: string;
}
const FUSION_RIGS = {
  js: { portal: PORT + 1, standIn: PORT + 90, control: PORT + 91 },
  nojs: { portal: PORT + 3, standIn: PORT + 92, control: PORT + 93 },
} as const;
const url = (port: number) => `http://127.0.0.1:${port}`;
function rig(name: keyof typeof FUSION_RIGS): FusionRig {
  const ports = FUSION_RIGS[name];
  return { portalUrl: url(ports.portal), standInUrl: url(ports.standIn), controlUrl: url(ports.control) };
}
const FUSION_SPECS = /fusion\.spec\.ts$/;

/**
 * The sign-in journeys run against a portal with single sign-on on, whose identity provider is the
 * test one (tests/idp/server.ts, a real OpenID Provider). The other journeys never see sign-in.
 */
export const SSO_PORTAL_URL = url(PORT + 4);
export const IDP_URL = url(PORT + 80);
const SSO_SPECS = /sign-in\.spec\.ts$/;
/**
 * Journeys that exist only with JavaScript, run by the JavaScript project alone: client-side
 * navigation, and axe, which runs as a script inside the page (its lite-mode pass covers the
 * markup a no-JavaScript browser gets).
 */
const JS_ONLY_SPECS = /(client-navigation|a11y)\.spec\.ts$/;

/**
 * The analytics journey reads counts that every other journey adds to: it runs against a portal
 * whose catalogue, and so whose signals database beside it, no other journey uses.
 */
export const ANALYTICS_PORTAL_URL = url(PORT + 5);
const ANALYTICS_SPECS = /analytics\.spec\.ts$/;

/**
 * The no-JavaScript projects browse in lite mode (the cookie the footer's switch and `?lite=1` set),
 * so every journey also checks that lite pages, which carry no script at all, work.
 */
export const LITE_COOKIE = { name: "lite", value: encodeURIComponent(Buffer.from(JSON.stringify(true)).toString("base64")) };
const LITE_MODE = {
  cookies: [{ ...LITE_COOKIE, domain: "127.0.0.1", path: "/", expires: -1, httpOnly: true, secure: false, sameSite: "Lax" as const }],
  origins: [],
};
const browsing = (name: "js" | "nojs") => (name === "js" ? { javaScriptEnabled: true } : { javaScriptEnabled: false, storageState: LITE_MODE });

const QUIET_SERVER = { reuseExistingServer: !process.env.CI, timeout: 120_000, stdout: "ignore", stderr: "pipe" } as const;

/** The company site of the footer's links (never visited by the tests). */
export const COMPANY_SITE = "https://www.example.com";

/** A test portal: the production build on a port of its own (scripts/e2e-server.mjs reads `env`). */
function portal(port: number, env: Record<string, string> = {}) {
  return {
    command: "node scripts/e2e-server.mjs",
    url: `http://127.0.0.1:${port}/api/ready`,
    ...QUIET_SERVER,
    env: { PORT: String(port), HOST: "127.0.0.1", SITE_URL: COMPANY_SITE, ...env },
  };
}

/**
 * Every journey runs twice: with JavaScript and without (in lite mode), against the built
 * app serving a generated sample catalogue. Chromium is Debian's, never a downloaded build.
 */
export default defineConfig({
  testDir: "tests/e2e",
  // Guard rails, not measurements: a journey of a dozen pages on a shared 2-core runner can take
  // 20 s or more, and a time limit that the runner's load can reach fails a working journey.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: BASE_URL,
    browserName: "chromium",
    // Recording a trace of every journey costs a quarter of the suite's time (measured on the search
    // and paging specs: 4.0 → 3.0 min); CI keeps only the printed report, so it records none.
    trace: process.env.CI ? "off" : "retain-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
        "--disable-quic",
      ],
    },
  },
  projects: [
    { name: "js", use: browsing("js"), testIgnore: [FUSION_SPECS, SSO_SPECS, ANALYTICS_SPECS] },
    { name: "nojs", use: browsing("nojs"), testIgnore: [FUSION_SPECS, SSO_SPECS, ANALYTICS_SPECS, JS_ONLY_SPECS] },
    // Each Fusion project steers a stand-in of its own; within a project the journeys go one after the other.
    ...(["js", "nojs"] as const).map((name) => ({
      name: `fusion-${name}`,
      use: { ...browsing(name), baseURL: rig(name).portalUrl },
      metadata: { fusion: rig(name) },
      testMatch: FUSION_SPECS,
      fullyParallel: false,
    })),
    ...(["js", "nojs"] as const).map((name) => ({
      name: `analytics-${name}`,
      use: { ...browsing(name), baseURL: ANALYTICS_PORTAL_URL },
      testMatch: ANALYTICS_SPECS,
    })),
    // Every sign-in journey signs in a user of its own, so the journeys may run side by side.
    ...(["js", "nojs"] as const).map((name) => ({
      name: `sso-${name}`,
      use: { ...browsing(name), baseURL: SSO_PORTAL_URL },
      testMatch: SSO_SPECS,
    })),
  ],
  webServer: [
    // The widgets' foreign pages (tests/e2e/embed.spec.ts) are served from PORT + 70 (js) and + 71 (nojs).
    portal(PORT, { EMBED_ORIGINS: `${url(PORT + 70)},${url(PORT + 71)}` }),
    ...(["js", "nojs"] as const).flatMap((name) => {
      const ports = FUSION_RIGS[name];
      return [
        {
          // The stand-in as a child of its supervisor, so a test can kill its process and start it again.
          // It answers from its recorded documents and closes every connection after answering, as
          // an HTTP/1.0-style server or a proxy with a short idle time would.
          command: `npx tsx tests/fusion-stand-in/supervisor.ts --port ${ports.standIn} --control-port ${ports.control} --connection close-after-answer`,
          url: `${url(ports.standIn)}/api`,
          ...QUIET_SERVER,
        },
        portal(ports.portal, { E2E_FUSION_URL: url(ports.standIn), E2E_CATALOG_DB: `.cache/e2e/fusion-fallback-${name}.db`, E2E_TYPEAHEAD: "true" }),
      ];
    }),
    // Its own catalogue is a small one, so that results from it would show in the counts. It is
    // ready without its backend, which it asks only when a page needs it.
    portal(PORT + 2, { E2E_FUSION_URL: NOBODY_URL, E2E_BACKEND_URL: BASE_URL, E2E_CATALOG_DB: ".cache/e2e/backend-mode.db", E2E_SAMPLE_ITEMS: "50" }),
    {
      command: `npx tsx tests/idp/server.ts --port ${PORT + 80} --portal ${SSO_PORTAL_URL}`,
      url: `${IDP_URL}/.well-known/openid-configuration`,
      ...QUIET_SERVER,
    },
    portal(PORT + 5, { E2E_CATALOG_DB: ".cache/e2e-analytics/catalog.db", E2E_SAMPLE_ITEMS: "300" }),
    portal(PORT + 4, { E2E_OIDC_ISSUER: IDP_URL, E2E_CATALOG_DB: ".cache/e2e/sso.db", E2E_SAMPLE_ITEMS: "300" }),
  ],
});
