import { CATALOG_FIELDS, OTHER_LABELS } from "./catalog-fields";
import { perName, perObject } from "~/lib/memo";
import type { SearchConfig } from "./search-config";

/**
 * Field rules of spec §3: index field names (`attribute_status_s`) become keys (`status`) and labels
 * (`Status`); internal fields are hidden; the view shows the rest in display order.
 */

const TYPE_PREFIXES = ["attributes_", "attribute_"];

/**
 * Solr dynamic-field suffixes, by type: string, text, integer, long, float/double, date, boolean,
 * n-gram; the plural forms are the multi-valued variants.
 */
const TYPE_SUFFIXES = new Set([
  "s", "ss",
  "t", "txt",
  "i", "is",
  "l", "ls",
  "f", "fs", "d", "ds",
  "dt", "dts",
  "b", "bs",
  "ng", "ngram",
]);

/** The type suffix of an index field name (`s` for `category_s`), or null. */
function typeSuffix(name: string): string | null {
  const at = name.lastIndexOf("_");
  if (at <= 0) return null;
  const suffix = name.slice(at + 1);
  return TYPE_SUFFIXES.has(suffix) ? suffix : null;
}

function stripSuffix(name: string): string {
  const suffix = typeSuffix(name);
  return suffix === null ? name : name.slice(0, name.length - suffix.length - 1);
}

export function hasTypeSuffix(name: string): boolean {
  return typeSuffix(name) !== null;
}

// The field-name rules below run for every field of every document on a page: answers are kept
// per name.

/** `attribute_status_s` → `status`, `item_number_s` → `item_number`; a key stays as it is. */
export const fieldKey = perName((name: string): string => {
  const base = stripSuffix(name);
  for (const prefix of TYPE_PREFIXES) {
    if (base.startsWith(prefix) && base.length > prefix.length) return base.slice(prefix.length);
  }
  return base;
});

// Spec §3's labels: the catalogue's fields and a few that other sources may hold.
const LABELS = new Map<string, string>([...CATALOG_FIELDS.map((f): [string, string] => [f.key, f.label]), ...Object.entries(OTHER_LABELS)]);

/** Accepts a key or an index field name. */
export const fieldLabel = perName((keyOrName: string): string => {
  const key = fieldKey(keyOrName);
  const known = LABELS.get(key);
  if (known) return known;
  const words = key.split("_").filter((w) => w !== "");
  if (words.length === 0) return keyOrName;
  return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");
});

// Compared case-insensitively with the whole name: the spec names these exactly (`price_d` with
// its suffix), and `description_t` is an item description fallback, not an internal field.
const HIDDEN_NAMES = new Set(["id", "score", "highlighting", "title", "sku", "price_d", "parentid", "body", "description"]);

/**
 * Storage-connector metadata (S3, GCS, Azure blobs), compared with separators and case removed so
 * that `Content-Type`, `contentType` and `content_type` all match.
 */
const STORAGE_METADATA = new Set([
  "recordid",
  "objectkey",
  "bucketname",
  "bucket",
  "server",
  "contenttype",
  "contentlength",
  "size",
  "lastmodified",
  "creationdate",
  "etag",
]);

const PROVIDER_HEADER = /^x[-_](amz|goog|ms|oss)[-_]/i;
const SIZED_VARIANT = /_(256|1024)$/;

/** Internal index fields (spec §3) that the generic tables and the item page never show. */
export const isHiddenField = perName((name: string): boolean => {
  if (name === "" || name.startsWith("_")) return true;
  if (HIDDEN_NAMES.has(name.toLowerCase())) return true;
  if (PROVIDER_HEADER.test(name)) return true;
  const base = stripSuffix(name);
  if (SIZED_VARIANT.test(name) || SIZED_VARIANT.test(base)) return true;
  // Connectors write metadata without the catalogue's `attribute_` prefix, and the snake_case
  // spellings that spec §3 labels (`last_modified`, `creation_date`, `record_id`) are item fields.
  const compact = base.toLowerCase().replace(/[-_.\s]/g, "");
  return STORAGE_METADATA.has(compact) && !LABELS.has(base);
});

export interface VisibleField {
  /** Index field name in the document. */
  name: string;
  key: string;
  label: string;
}

export type FieldRecord = Readonly<Record<string, unknown>>;

/** The name a doc gives the field of `key` (`stock_locator` → `attribute_stock_locator_s`), whatever suffix its engine adds. */
export function fieldNameIn(doc: FieldRecord, key: string): string | undefined {
  return Object.keys(doc).find((name) => fieldKey(name) === key);
}

export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return value.every(isEmptyValue);
  return false;
}

// Among names sharing a key the string variant wins (spec §3); one with a value beats an empty one.
function variantRank(doc: FieldRecord, name: string): number {
  const suffix = typeSuffix(name);
  const typeRank = suffix === "s" ? 0 : suffix === "ss" ? 1 : suffix === null ? 2 : 3;
  return (isEmptyValue(doc[name]) ? 10 : 0) + typeRank;
}

function compareText(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The document's visible fields, one per key: display-order keys first, then alphabetical. */
export function visibleFields(doc: FieldRecord, displayOrder: readonly string[]): VisibleField[] {
  const chosen = new Map<string, string>();
  for (const name of Object.keys(doc)) {
    if (isHiddenField(name)) continue;
    const key = fieldKey(name);
    const current = chosen.get(key);
    if (current === undefined || variantRank(doc, name) < variantRank(doc, current)) chosen.set(key, name);
  }
  const position = new Map<string, number>();
  displayOrder.forEach((key, i) => {
    if (!position.has(key)) position.set(key, i);
  });
  const keys = [...chosen.keys()].sort((a, b) => {
    const pa = position.get(a);
    const pb = position.get(b);
    if (pa !== undefined && pb !== undefined) return pa - pb;
    if (pa !== undefined) return -1;
    if (pb !== undefined) return 1;
    return compareText(a, b);
  });
  return keys.map((key) => ({ name: chosen.get(key) ?? key, key, label: fieldLabel(key) }));
}

// A configuration is never changed once built, so each one keeps its facet fields and name look-ups.
export const configuredFacetFields = perObject((config: SearchConfig): string[] => [
  ...config.allFacetFields,
  ...config.facetFields.filter((f) => !config.allFacetFields.includes(f)),
]);

const facetResolver = perObject((config: SearchConfig) => {
  const fields = configuredFacetFields(config);
  return perName((name) => (fields.includes(name) ? name : fields.find((field) => fieldKey(field) === name) ?? null), 1_000);
});

/**
 * The configured facet field a URL names, by its key (`status`) or its full name
 * (`attribute_status_s`); null for anything else, which the URL codec ignores.
 */
export function resolveFacetField(keyOrName: string, config: SearchConfig): string | null {
  return facetResolver(config)(keyOrName);
}
