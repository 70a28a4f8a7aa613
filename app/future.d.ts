import "@remix-run/node";

// Single fetch is on (remix.config.js): loaders' `data()` results are typed accordingly.
declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}
