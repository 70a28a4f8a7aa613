import { WIDGETS_JS } from "~/web/embed-widgets.server";

/** The widgets' script, for the portal's /embed page and the pages of EMBED_ORIGINS. */
export function loader() {
  return new Response(WIDGETS_JS, {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
