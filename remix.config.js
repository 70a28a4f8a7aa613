// REMIX_BUILD_DIR puts a build somewhere else (server in <dir>/index.js, assets in
// <dir>/assets), so a second build can be served without touching the main one.
const buildDir = process.env.REMIX_BUILD_DIR;
// BENCH_EMPTY_DOCUMENT adds the benchmark's empty document at /bench/empty-document (bench/overhead.ts
// builds with it into a build directory of its own; the app's own build never has it).
const benchRoutes = process.env.BENCH_EMPTY_DOCUMENT
  ? { routes: (defineRoutes) => defineRoutes((route) => route("/bench/empty-document", "../bench/empty-document-route.tsx")) }
  : {};

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  ...benchRoutes,
  ...(buildDir ? { serverBuildPath: `${buildDir}/index.js`, assetsBuildDirectory: `${buildDir}/assets/build` } : {}),
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    // Off: the two dozen routes travel once, in a manifest file the browser caches, instead of a
    // partial manifest matched and written into every page (a measurable share of each render).
    v3_lazyRouteDiscovery: false,
    // Off: see docs/decisions/008. Loaders return `json()`; documents are rendered with renderToString.
    v3_singleFetch: false,
  },
};
