/** What the item page shows of a document (spec: details-bom-signin §2 "Product detail"). */
import { safeImageSrc } from "~/lib/safe-path";
import type { Doc } from "./engine";
import { formatValue, itemDescription, itemNumberOf } from "./field-format";
import { CATALOG_FIELDS, catalogName } from "./catalog-fields";
import { fieldLabel, visibleFields } from "./fields";

/** How the item page reads each catalogue field's value (catalog-fields.ts `reads`), by key. */
const READS = new Map(CATALOG_FIELDS.flatMap((f) => (f.reads ? [[f.key, f.reads] as const] : [])));
/** Dates: the catalogue's date fields, and any field named `…_date` (other sources' association and update dates). */
const DATE_KEYS = new Set(CATALOG_FIELDS.filter((f) => f.type === "date").map((f) => f.key));
const URL_FIELD = catalogName("url");
const IMAGE_FIELD = catalogName("primary_image_url");
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/**
 * A value as people read it on the item page (issue 29): dates as `5 March 2024` (UTC, as the
 * catalogue stores them), prices with their currency (the spec's default, USD) and two decimals,
 * lead times in days. Anything else, and any value that is not what its field says, as stored.
 * The CSV export keeps the stored values.
 */
export function formatForPeople(key: string, value: unknown): string {
  const plain = formatValue(value);
  if (plain === "N/A") return plain;
  if (READS.get(key) === "price" && /^-?\d+(\.\d+)?$/.test(plain)) return `$${Number(plain).toFixed(2)} USD`;
  if (READS.get(key) === "days" && /^\d+$/.test(plain)) return `${plain} ${plain === "1" ? "day" : "days"}`;
  if ((DATE_KEYS.has(key) || key.endsWith("_date")) && /^\d{4}-\d{2}-\d{2}/.test(plain)) {
    const date = new Date(plain);
    if (!Number.isNaN(date.getTime())) return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
  }
  return plain;
}

/**
 * The specification list: every field of the display order (an absent or empty one as N/A, but
 * media, shown as the image and links), then the item's other visible fields alphabetically.
 */
export function specificationOf(product: Doc, displayOrder: readonly string[]) {
  const present = visibleFields(product, displayOrder);
  const byKey = new Map(present.map((field) => [field.key, field]));
  const rows: { name: string; label: string; value: string }[] = [];
  for (const key of displayOrder) {
    const field = byKey.get(key);
    if (field) {
      rows.push({ name: field.name, label: field.label || fieldLabel(field.key), value: formatForPeople(field.key, product[field.name]) });
      byKey.delete(key);
    } else if (READS.get(key) !== "media") {
      rows.push({ name: key, label: fieldLabel(key), value: "N/A" });
    }
  }
  for (const field of present) {
    if (byKey.has(field.key)) rows.push({ name: field.name, label: field.label || fieldLabel(field.key), value: formatForPeople(field.key, product[field.name]) });
  }
  return rows;
}

export function titleOf(product: Doc): string {
  return itemDescription(product) ?? itemNumberOf(product);
}

/** Only http(s) URLs are offered as the external "View Details" link. */
export function externalUrlOf(product: Doc): string | null {
  const url = product[URL_FIELD] ?? product.url;
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
  return safeImageSrc(product[IMAGE_FIELD] ?? product.image, imageOrigins);
}
