import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * The scale suite: two replicas of the production build behind HAProxy, sharing a PostgreSQL
 * (tests/scale). It needs a build and Debian's postgresql and haproxy (`npm run test:scale`
 * installs them when missing). Each file's tests run in order, sharing the parts it starts.
 */
export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["tests/scale/**/*.test.ts"],
    // One file at a time: each starts its own PostgreSQL, and the replicas suite wants the cores.
    fileParallelism: false,
    environment: "node",
    setupFiles: ["tests/support/console-guard.ts"],
    // A busy machine may be slow to answer, which is no failure: the tests assert what comes back.
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
