#!/usr/bin/env node
// The server the browser tests run against: the production build on a sample catalogue of its own.
import { spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const env = {
  ...process.env,
  NODE_ENV: "production",
  CATALOG_DB: process.env.E2E_CATALOG_DB ?? path.join(root, ".cache/e2e/catalog.db"),
  SAMPLE_ITEMS: process.env.E2E_SAMPLE_ITEMS ?? "5000",
  EXPORT_LIMIT: process.env.EXPORT_LIMIT ?? "1000",
  // The suites send far more requests from one address than a person would: limits off unless a
  // test turns them on.
  RATE_LIMIT_PER_MINUTE: process.env.RATE_LIMIT_PER_MINUTE ?? "0",
  SIGN_IN_RATE_LIMIT_PER_MINUTE: process.env.SIGN_IN_RATE_LIMIT_PER_MINUTE ?? "0",
};
// The Fusion browser tests run a second portal against the stand-in (E2E_FUSION_URL); the others
// never see a search platform configured on the machine.
delete env.FUSION_URL;
delete env.BACKEND_URL;
// Any sign-in variable set is sign-in on (a partial set stops the start): the machine's never reach a test portal.
for (const name of ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET", "SESSION_SECRET"]) delete env[name];
if (process.env.E2E_FUSION_URL) {
  Object.assign(env, {
    FUSION_URL: process.env.E2E_FUSION_URL,
    FUSION_APP: "parts",
    FUSION_TIMEOUT_MS: process.env.FUSION_TIMEOUT_MS ?? "1500",
    FUSION_BREAKER_THRESHOLD: process.env.FUSION_BREAKER_THRESHOLD ?? "2",
    FUSION_BREAKER_COOLDOWN_MS: process.env.FUSION_BREAKER_COOLDOWN_MS ?? "5000",
    // One process: the breaker tests count the requests that open the breaker.
    WEB_CONCURRENCY: "1",
  });
}
// The sign-in browser tests run a portal against the test identity provider (tests/idp/server.ts).
if (process.env.E2E_OIDC_ISSUER) {
  Object.assign(env, {
    OIDC_ISSUER: process.env.E2E_OIDC_ISSUER,
    OIDC_CLIENT_ID: "crib-search",
    OIDC_CLIENT_SECRET: "idp-test-client-secret",
    SESSION_SECRET: "a-session-secret-for-the-tests-only",
    APP_URL: `http://127.0.0.1:${env.PORT}`,
  });
}
// Type-ahead is off (the spec's default) unless a portal's tests switch it on.
env.TYPEAHEAD_ENABLED = process.env.E2E_TYPEAHEAD ?? "false";
// The backend-mode browser tests run a third portal whose backup is another portal's /api.
if (process.env.E2E_BACKEND_URL) env.BACKEND_URL = process.env.E2E_BACKEND_URL;
const server = spawn(
  process.execPath,
  [path.join(root, "scripts/serve.mjs"), path.join(root, "build/index.js")],
  { cwd: root, stdio: "inherit", env },
);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
