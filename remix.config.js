/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
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
