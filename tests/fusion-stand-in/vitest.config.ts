import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * The stand-in's own tests, runnable while the root config does not include them:
 *   npx vitest run --config tests/fusion-stand-in/vitest.config.ts
 */
export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  resolve: { alias: { "~": fileURLToPath(new URL("../../app", import.meta.url)) } },
  test: {
    include: ["tests/fusion-stand-in/**/*.test.ts"],
    environment: "node",
    pool: "forks",
  },
});
