import type { AppLoadContext } from "@remix-run/node";
import { services } from "~/registry.server";
import { SEARCH_PATH } from "~/search/paths";
import { requireUser } from "./sign-in.server";

export const EMBED_PATH = "/embed";
export const WIDGETS_PATH = "/embed/widgets.js";

/**
 * /embed: the widgets demo (details-bom-signin §2). The configuration shown is the spec's "Embed
 * config" without its key: the portal holds Fusion's key and the widgets only ever call the
 * portal's /api. The status is "Fusion Ready" when Fusion answers its health check.
 */
export async function loadEmbed(request: Request, loadContext: AppLoadContext) {
  await requireUser(request, loadContext);
  const url = new URL(request.url);
  const view = url.searchParams.get("view") === "list" ? "list" : "grid";
  const theme = url.searchParams.get("theme") === "dark" ? "dark" : "light";
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 500);
  const { config, search } = services();
  const platform = search.platformStatus();
  const fusionReady = platform ? (await platform).ok : false;
  const href = (change: Record<string, string>) => {
    const params = new URLSearchParams({ view, theme, ...(q ? { q } : {}), ...change });
    return `${EMBED_PATH}?${params}`;
  };
  return {
    status: fusionReady ? "Fusion Ready" : "Embeddables Only",
    view,
    theme,
    q,
    searchAction: SEARCH_PATH,
    widgetsSrc: WIDGETS_PATH,
    config: [
      { label: "App ID", value: config.fusion?.app ?? "—" },
      { label: "Query profile", value: config.fusion?.queryProfile ?? "—" },
      { label: "Collection", value: config.fusion?.collection ?? config.fusion?.app ?? "—" },
      // The address this page was asked at, which the widgets' `endpoint` must name: APP_URL is
      // the sign-in redirect's origin and keeps its default (localhost:3000) when sign-in is off.
      { label: "Endpoint", value: url.origin },
      { label: "API key", value: "Held by the portal; never sent to a browser" },
      { label: "Theme", value: theme },
      { label: "Allowed origins (EMBED_ORIGINS)", value: config.embedOrigins.join(", ") || "none: this portal's own pages only" },
    ],
    viewLinks: (["grid", "list"] as const).map((v) => ({ view: v, href: href({ view: v }), current: v === view })),
    themeLinks: (["light", "dark"] as const).map((t) => ({ theme: t, href: href({ theme: t }), current: t === theme })),
  };
}
