import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * The HTTP suite: what needs a real server but no browser (status codes, redirects, headers,
 * cookies). Its global setup serves the production build, so run it after `remix build`.
 */
export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["tests/http/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/http/global-setup.ts"],
    // One server for every file; the tests only read, so they may run side by side.
    hookTimeout: 180_000,
    testTimeout: 30_000,
  },
});
