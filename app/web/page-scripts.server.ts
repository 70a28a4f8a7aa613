/**
 * The text of a page's two inline scripts (docs/decisions/048, drawn by
 * `components/page-scripts.tsx`): Remix's state for hydration, and a loader that requests the
 * page's modules after its first frame is painted, as Remix's `<Scripts/>` would have requested
 * them while the frame was laid out: module preloads of every script the page needs, the route
 * manifest and the matched routes' modules, then Remix's entry, which hydrates the page from
 * `window.__remixContext` and `window.__remixRouteModules`.
 *
 * Written for Remix 2 with `v3_lazyRouteDiscovery` and `v3_singleFetch` off and no `defer()`
 * (remix.config.js, decision 008); tests/e2e/page-scripts.spec.ts holds it to them.
 */
import { UNSAFE_RemixContext, useMatches, type UNSAFE_AssetsManifest as AssetsManifest } from "@remix-run/react";
import { useContext } from "react";

/** What the browser loads once the page is painted: every URL is one of the build's own files. */
interface PageModules {
  /** Module preloads, so that the modules are fetched at once rather than import by import. */
  preloads: string[];
  /** Modules run for their effect before the routes: the development runtime, the route manifest. */
  first: string[];
  /** Each matched route's module, by route id. */
  routes: Record<string, string>;
  entry: string;
}

/** The page's modules, as Remix's `<Scripts/>` names them for the routes the server matched. */
function pageModules(manifest: AssetsManifest, routeIds: string[]): PageModules {
  const routes = routeIds.map((id) => [id, manifest.routes[id]!] as const);
  const routeFiles = routes.flatMap(([, route]) => [...(route.imports ?? []), route.module]);
  return {
    preloads: [...new Set([manifest.url, manifest.entry.module, ...manifest.entry.imports, ...routeFiles])],
    first: [...(manifest.hmr ? [manifest.hmr.runtime] : []), manifest.url],
    routes: Object.fromEntries(routes.map(([id, route]) => [id, route.module])),
    entry: manifest.entry.module,
  };
}

/** JSON a `<script>` element can hold: no `</script>` or `<!--` ends it early. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

// Runs in the browser. It starts once the browser reports the page's first paint (a `paint`
// performance entry, which comes when the frame is on the screen, not merely drawn), or after a
// second without one; at once on a hidden page, which paints nothing; and where paint timing is
// unknown, after the next frame (requestAnimationFrame runs before it is drawn, the timeout after).
const LOADER = `function (page) {
  var started = false;
  function start() {
    if (started) return;
    started = true;
    page.preloads.forEach(function (href) {
      var link = document.createElement("link");
      link.rel = "modulepreload";
      link.href = href;
      document.head.appendChild(link);
    });
    var ids = Object.keys(page.routes);
    Promise.all(page.first.map(function (url) { return import(url); })).then(function () {
      return Promise.all(ids.map(function (id) { return import(page.routes[id]); }));
    }).then(function (modules) {
      window.__remixRouteModules = {};
      ids.forEach(function (id, i) { window.__remixRouteModules[id] = modules[i]; });
      return import(page.entry);
    });
  }
  if (document.visibilityState === "hidden") return start();
  if (window.PerformanceObserver && (PerformanceObserver.supportedEntryTypes || []).indexOf("paint") >= 0) {
    new PerformanceObserver(function (entries, observer) {
      observer.disconnect();
      start();
    }).observe({ type: "paint", buffered: true });
    setTimeout(start, 1000);
  } else {
    requestAnimationFrame(function () { setTimeout(start, 0); });
  }
}`;

/** The two scripts' text, for the routes the server matched: a hook of the server's render alone. */
export function usePageScriptTexts(): { handoff: string; loader: string } {
  const remix = useContext(UNSAFE_RemixContext);
  const routeIds = useMatches().map((match) => match.id);
  if (!remix) throw new Error("The page's scripts are rendered outside Remix");
  return {
    handoff: `window.__remixContext = ${remix.serverHandoffString ?? "{}"};`,
    loader: `(${LOADER})(${scriptJson(pageModules(remix.manifest, routeIds))});`,
  };
}
