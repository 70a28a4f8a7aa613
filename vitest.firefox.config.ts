import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Scans in Firefox ESR, Debian's (tests/firefox): the production build on a sample catalogue of its
 * own, driven by puppeteer-core over WebDriver BiDi. Without Firefox ESR the tests are skipped, saying why.
 */
export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["tests/firefox/**/*.test.ts"],
    environment: "node",
    setupFiles: ["tests/support/console-guard.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
