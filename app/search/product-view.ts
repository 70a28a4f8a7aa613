/** What the item page shows of a document (spec: details-bom-signin §2 "Product detail"). */
import { safeImageSrc } from "~/lib/safe-path";
import type { Doc } from "./engine";
import { formatValue, isInactive, itemDescription } from "./field-format";
import { fieldLabel, visibleFields } from "./fields";

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

/** The item's image: a path of this site or an address of an allowed image host, else none. */
export function imageOf(product: Doc, imageOrigins: readonly string[]): string | null {
  return safeImageSrc(product.primary_image_url_s ?? product.image, imageOrigins);
}

export { isInactive };
