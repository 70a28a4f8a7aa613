/**
 * The Remix config of the benchmarks' builds (bench/build.ts): the app's own config, built into a
 * directory under bench/out/ so that the app's build/ and public/build/ are never touched, and,
 * for bench:overhead, with the empty document (bench/empty-document-route.tsx) at
 * /bench/empty-document. Paths are absolute: the compiler resolves relative ones against the
 * generated project root, and remix-serve resolves the assets directory against its working
 * directory.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import appConfig from "../remix.config.js";

const projectRoot = fileURLToPath(new URL("..", import.meta.url));
const appDirectory = path.join(projectRoot, "app");
const emptyDocumentRoute = fileURLToPath(new URL("./empty-document-route.tsx", import.meta.url));

/**
 * @param {{ buildDir: string, emptyDocument: boolean }} options
 * @returns {import("@remix-run/dev").AppConfig}
 */
export function benchBuildConfig({ buildDir, emptyDocument }) {
  return {
    ...appConfig,
    appDirectory,
    cacheDirectory: path.join(buildDir, ".cache"),
    serverBuildPath: path.join(buildDir, "index.js"),
    assetsBuildDirectory: path.join(buildDir, "assets"),
    routes: async (defineRoutes) => ({
      ...(await appConfig.routes?.(defineRoutes)),
      ...(emptyDocument
        ? defineRoutes((route) => route("/bench/empty-document", path.relative(appDirectory, emptyDocumentRoute)))
        : {}),
    }),
  };
}
