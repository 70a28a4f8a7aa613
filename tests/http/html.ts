/**
 * Reading the portal's server-rendered HTML in the HTTP suite: the few things a test looks for,
 * found by pattern (no DOM), as a reader gets them: tags and React's text separators removed,
 * entities decoded.
 */

const ENTITIES: Record<string, string> = { "&amp;": "&", "&quot;": '"', "&#x27;": "'", "&#39;": "'", "&lt;": "<", "&gt;": ">" };
export const decodeHtml = (text: string) => text.replace(/&(amp|quot|#x27|#39|lt|gt);/g, (entity) => ENTITIES[entity]!);

/** The text of a piece of HTML: tags (and `<!-- -->`) removed, entities decoded, spaces collapsed. */
export function textOf(html: string): string {
  return decodeHtml(html.replace(/<[^>]*>/g, "")).replace(/\s+/g, " ").trim();
}

/** Every href of a page, as the browser reads it. */
export function hrefs(html: string): string[] {
  return [...html.matchAll(/\shref="([^"]*)"/g)].map((m) => decodeHtml(m[1]!));
}

/** The page's links with their text. */
export function anchors(html: string): { href: string; text: string }[] {
  return [...html.matchAll(/<a\b[^>]*\shref="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g)].map((m) => ({ href: decodeHtml(m[1]!), text: textOf(m[2]!) }));
}

/** The texts of the page's headings (h1 to h6), in order. */
export function headings(html: string): string[] {
  return [...html.matchAll(/<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1>/g)].map((m) => textOf(m[2]!));
}

/**
 * The inner HTML of the first `tag` whose opening tag holds `attribute` (`id="main"`), up to the
 * first closing tag of its name: for elements that hold none of their own kind. Null when there is none.
 */
export function element(html: string, tag: string, attribute: string): string | null {
  const open = new RegExp(`<${tag}\\b[^>]*${attribute.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[^>]*>`).exec(html);
  if (!open) return null;
  const end = html.indexOf(`</${tag}>`, open.index + open[0].length);
  return end < 0 ? null : html.slice(open.index + open[0].length, end);
}
