import { z } from "zod";
import { perObject } from "~/lib/memo";
import type { Filter, Sort } from "~/search/engine";
import { catalogField, SORTABLE_FIELDS, STOCK_LEVEL_FIELD } from "~/search/catalog-fields";
import { fieldKey } from "~/search/fields";
import type { SearchConfig } from "~/search/search-config";
import type { QueryTree } from "~/search/query/query";
import { QueryTreeSchema } from "~/search/query/tree-schema";

const SORTABLE = new Set(SORTABLE_FIELDS);

/** A catalogue field's index name, from its full name or its key (`org_code` → `org_code_s`). */
function resolveCatalogField(keyOrName: string): string | null {
  return catalogField(keyOrName)?.name ?? null;
}

/** A facet's field by its key or name: a catalogue field's, or the stock level's (no field holds it). */
function resolveFacetField(keyOrName: string): string | null {
  return keyOrName === STOCK_LEVEL_FIELD || keyOrName === fieldKey(STOCK_LEVEL_FIELD) ? STOCK_LEVEL_FIELD : resolveCatalogField(keyOrName);
}

/**
 * The backend's sort rule (spec §5): `relevance` or empty is score descending; a value ending in
 * asc or desc is kept; otherwise ascending for name, title, org code and item type, else descending.
 */
function parseApiSort(value: string): Sort | "invalid" {
  const trimmed = value.trim();
  if (trimmed === "" || trimmed === "relevance" || trimmed === "score desc") return null;
  const match = /^(\S+)(?:\s+(asc|desc))?$/i.exec(trimmed);
  if (!match) return "invalid";
  const field = resolveCatalogField(match[1]!);
  if (!field || !SORTABLE.has(field)) return "invalid";
  const given = match[2]?.toLowerCase() as "asc" | "desc" | undefined;
  const key = fieldKey(field);
  const ascendingByDefault = ["name", "title", "org_code", "item_type"].some((k) => key === k || key.endsWith(`_${k}`));
  return { field, direction: given ?? (ascendingByDefault ? "asc" : "desc") };
}

const int = (min: number, max: number, fallback: number) =>
  z.coerce
    .number({ error: "expected a whole number" })
    .int("expected a whole number")
    .min(min, `at least ${min}`)
    .max(max, `at most ${max}`)
    .default(fallback);

const query = z.string().max(500, "at most 500 characters").default("").transform((q) => q.trim());

const FilterEntrySchema = z.object({ value: z.string().max(1000), type: z.enum(["include", "exclude"]).default("include") });
const FiltersSchema = z.record(z.string(), z.array(FilterEntrySchema).max(100)).default({});

/** `filters` is JSON text: `{"org_code":[{"value":"LOU","type":"include"}]}`. */
function parseFilters(text: string | undefined, ctx: z.RefinementCtx): Filter[] {
  if (!text) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    ctx.addIssue({ code: "custom", path: ["filters"], message: "expected JSON text" });
    return z.NEVER;
  }
  const parsed = FiltersSchema.safeParse(raw);
  if (!parsed.success) {
    ctx.addIssue({ code: "custom", path: ["filters"], message: "expected an object of field → [{value, type}]" });
    return z.NEVER;
  }
  const filters: Filter[] = [];
  for (const [name, entries] of Object.entries(parsed.data)) {
    const field = resolveFacetField(name);
    if (!field) {
      ctx.addIssue({ code: "custom", path: ["filters"], message: `unknown field ${JSON.stringify(name)}` });
      return z.NEVER;
    }
    for (const entry of entries) filters.push({ field, value: entry.value, type: entry.type });
  }
  return filters;
}

function facetList(config: SearchConfig) {
  return z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined) return config.facetFields;
      const fields: string[] = [];
      for (const name of text.split(",").map((s) => s.trim()).filter(Boolean)) {
        const field = resolveFacetField(name);
        if (!field || !config.allFacetFields.includes(field)) {
          ctx.addIssue({ code: "custom", message: `unknown facet ${JSON.stringify(name)}` });
          return z.NEVER;
        }
        fields.push(field);
      }
      return fields;
    });
}

function parseQueryTree(text: string | undefined, ctx: z.RefinementCtx): QueryTree | undefined {
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  const parsed = QueryTreeSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  ctx.addIssue({ code: "custom", message: "expected a query tree as JSON" });
  return z.NEVER;
}

// One schema per configuration: building a zod schema costs far more than running it.
export const apiSearchSchema = perObject((config: SearchConfig) =>
  z.object({
    q: query,
    start: int(0, 1_000_000, 0),
    rows: int(0, 100, 20),
    sort: z
      .string()
      .default("relevance")
      .transform((value, ctx) => {
        const sort = parseApiSort(value);
        if (sort === "invalid") {
          ctx.addIssue({ code: "custom", message: "expected relevance or a sortable field with asc or desc" });
          return z.NEVER;
        }
        return sort;
      }),
    filters: z.string().optional().transform(parseFilters),
    facets: facetList(config),
    highlight: z.enum(["true", "false"]).default("true").transform((v) => v === "true"),
    // The query tree as JSON (search/query/tree-schema.ts), as the product backend engine sends it.
    query: z.string().max(20_000).optional().transform(parseQueryTree),
  }),
);

export const ApiSuggestionsSchema = z.object({ q: z.string().max(200).default(""), limit: int(1, 50, 5) });

export const ApiProductsSchema = z.object({ q: query, start: int(0, 1_000_000, 0), rows: int(1, 100, 20) });

export const apiFacetsSchema = perObject((config: SearchConfig) => z.object({ q: query, fields: facetList(config) }));

export const ProductIdSchema = z.string().trim().min(1, "Product ID not provided").max(500, "Product ID too long");
