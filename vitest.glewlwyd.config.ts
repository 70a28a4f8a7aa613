import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * The portal against Glewlwyd, a real OpenID provider from Debian (tests/glewlwyd): the production
 * build, the provider's login page in Debian's Chromium. Its tests run in order and share the
 * provider and the portal they start; without Glewlwyd they are skipped, saying why.
 */
export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["tests/glewlwyd/**/*.test.ts"],
    environment: "node",
    setupFiles: ["tests/support/console-guard.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
