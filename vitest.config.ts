import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["app/**/*.test.ts", "app/**/*.test.tsx", "tests/integration/**/*.test.ts", "tests/fusion-stand-in/**/*.test.ts", "scripts/**/*.test.ts", "bench/**/*.test.ts", "tests/lint/**/*.test.ts"],
    environment: "node",
    setupFiles: ["tests/support/console-guard.ts"],
    pool: "forks",
  },
});
