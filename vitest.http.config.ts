import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * The HTTP suite: what needs a real server but no browser (status codes, redirects, headers,
 * cookies). Its global setup serves the production build, so run it after `npm run build`.
 */
export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["tests/http/**/*.test.ts"],
    environment: "node",
    setupFiles: ["tests/support/console-guard.ts"],
    globalSetup: ["tests/http/global-setup.ts"],
    // One server for every file; no test changes what another reads, so they may run side by side. A busy machine
    // may be slow to answer, which is no failure: the tests assert what comes back, not when.
    testTimeout: 30_000,
  },
});
