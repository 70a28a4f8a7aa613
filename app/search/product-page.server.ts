import type { Doc, RequestContext } from "./engine";
import { fieldLabel, formatValue, isInactive, itemDescription, visibleFields } from "./fields";
import { productLink } from "~/lib/safe-path";
import { getSearchService } from "./service.server";
import { goToPage, parseSearchParams, searchHref } from "./state";

export interface Neighbour {
  itemNumber: string;
  href: string;
}

/**
 * Previous and next results around an item, from the search it was opened from. The search travels
 * in `back` and the item's place in it in `pos`; the search is re-run for the three results around
 * that place. When the results have changed and the item is not there any more, there is no
 * previous or next rather than a wrong one.
 */
export async function neighboursOf(
  product: Doc,
  back: string,
  position: number | null,
  context: RequestContext,
): Promise<{ prev: Neighbour | null; next: Neighbour | null; position: number | null; total: number | null }> {
  const none = { prev: null, next: null, position: null, total: null };
  if (position === null || !back.startsWith("/crib-search/search")) return none;
  const service = getSearchService();
  const config = service.searchConfig;
  const state = parseSearchParams(new URL(back, "http://x").searchParams, config);
  const start = Math.max(0, position - 1);
  const answer = await service.search(
    { q: state.q, within: state.within, filters: state.filters, sort: state.sort, start, rows: 3, facetFields: [], highlight: false },
    context,
  );
  const docs = answer.value.docs;
  const at = docs.findIndex((d) => d.id === product.id);
  if (at < 0 || start + at !== position) return none;
  const link = (doc: Doc | undefined, pos: number): Neighbour | null => {
    if (!doc) return null;
    const itemNumber = String(doc.item_number_s ?? doc.id);
    const page = Math.floor(pos / state.rows) + 1;
    return { itemNumber, href: productLink(itemNumber, searchHref(goToPage(state, page), config), pos) };
  };
  return {
    prev: at > 0 ? link(docs[at - 1], position - 1) : null,
    next: link(docs[at + 1], position + 1),
    position,
    total: answer.value.total,
  };
}

/** Media fields are shown as the image and links, not as "N/A" rows when an item has none. */
const MEDIA_KEYS = new Set(["image_urls", "primary_image_url", "other_attachments"]);

/**
 * The specification list: every field of the display order (an absent or empty one as N/A), then
 * the item's other visible fields alphabetically.
 */
export function specificationOf(product: Doc, displayOrder: readonly string[]) {
  const present = visibleFields(product, displayOrder);
  const byKey = new Map(present.map((field) => [field.key, field]));
  const rows: { name: string; label: string; value: string }[] = [];
  for (const key of displayOrder) {
    const field = byKey.get(key);
    if (field) {
      rows.push({ name: field.name, label: field.label || fieldLabel(field.key), value: formatValue(product[field.name]) });
      byKey.delete(key);
    } else if (!MEDIA_KEYS.has(key)) {
      rows.push({ name: key, label: fieldLabel(key), value: "N/A" });
    }
  }
  for (const field of present) {
    if (byKey.has(field.key)) rows.push({ name: field.name, label: field.label || fieldLabel(field.key), value: formatValue(product[field.name]) });
  }
  return rows;
}

export function titleOf(product: Doc): string {
  return itemDescription(product) ?? String(product.item_number_s ?? product.id);
}

/** Only http(s) URLs are offered as the external "View Details" link. */
export function externalUrlOf(product: Doc): string | null {
  const url = product.url_s ?? product.url;
  if (typeof url !== "string") return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.toString() : null;
  } catch {
    return null;
  }
}

export function imageOf(product: Doc): string | null {
  const image = product.primary_image_url_s ?? product.image;
  if (typeof image !== "string") return null;
  return /^(https?:\/\/|\/(?!\/))/.test(image) ? image : null;
}

export { isInactive };
