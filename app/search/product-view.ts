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
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const PRICE_KEYS = new Set(["list_price", "unit_cost", "bpa_price"]);
const DATE_KEYS = new Set(["creation_date", "last_updated_date", "last_modified", "association_date"]);

/**
 * A value as people read it on the item page (issue 29): dates as `5 March 2024` (UTC, as the
 * catalogue stores them), prices with their currency (the spec's default, USD) and two decimals,
 * lead times in days. Anything else, and any value that is not what its field says, as stored.
 * The CSV export keeps the stored values.
 */
export function formatForPeople(key: string, value: unknown): string {
  const plain = formatValue(value);
  if (plain === "N/A") return plain;
  if (PRICE_KEYS.has(key) && /^-?\d+(\.\d+)?$/.test(plain)) return `$${Number(plain).toFixed(2)} USD`;
  if (key === "lead_time" && /^\d+$/.test(plain)) return `${plain} ${plain === "1" ? "day" : "days"}`;
  if ((DATE_KEYS.has(key) || key.endsWith("_date")) && /^\d{4}-\d{2}-\d{2}/.test(plain)) {
    const date = new Date(plain);
    if (!Number.isNaN(date.getTime())) return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
  }
  return plain;
}

export function specificationOf(product: Doc, displayOrder: readonly string[]) {
  const present = visibleFields(product, displayOrder);
  const byKey = new Map(present.map((field) => [field.key, field]));
  const rows: { name: string; label: string; value: string }[] = [];
  for (const key of displayOrder) {
    const field = byKey.get(key);
    if (field) {
      rows.push({ name: field.name, label: field.label || fieldLabel(field.key), value: formatForPeople(field.key, product[field.name]) });
      byKey.delete(key);
    } else if (!MEDIA_KEYS.has(key)) {
      rows.push({ name: key, label: fieldLabel(key), value: "N/A" });
    }
  }
  for (const field of present) {
    if (byKey.has(field.key)) rows.push({ name: field.name, label: field.label || fieldLabel(field.key), value: formatForPeople(field.key, product[field.name]) });
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
