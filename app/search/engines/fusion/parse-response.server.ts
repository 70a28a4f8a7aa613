import { z } from "zod";
import { BELOW_MINIMUM, STOCK_LEVEL_FIELD } from "../../catalog-fields";
import type { BomDoc, BomType, FacetResult, SearchResponse } from "../../engine";
import { HL_POST, HL_PRE, toDoc } from "../../engine";
import { fieldKey } from "../../fields";
import { FusionError, MESSAGES } from "./fusion-errors";

const DocSchema = z.looseObject({ id: z.union([z.string(), z.number()]) });

const BucketSchema = z.looseObject({ val: z.union([z.string(), z.number(), z.boolean()]), count: z.number() });
const JsonFacetSchema = z.looseObject({ buckets: z.array(BucketSchema) });
/** A query facet's answer (the stock level's): the count of its matches. */
const QueryFacetSchema = z.looseObject({ count: z.number().int().nonnegative() });

export const SolrResponseSchema = z.looseObject({
  response: z.looseObject({
    numFound: z.number().int().nonnegative(),
    start: z.number().optional(),
    docs: z.array(DocSchema),
  }),
  facets: z.record(z.string(), z.unknown()).optional(),
  facet_counts: z.looseObject({ facet_fields: z.record(z.string(), z.unknown()).optional() }).optional(),
  highlighting: z.record(z.string(), z.record(z.string(), z.array(z.string()))).optional(),
  spellcheck: z.looseObject({ collations: z.unknown().optional() }).optional(),
  nextCursorMark: z.string().optional(),
});
export type SolrResponse = z.infer<typeof SolrResponseSchema>;

/** JSON facet buckets, or classic flat `facet_fields` lists, as engine facets. */
export function parseFacets(body: SolrResponse, fields: readonly string[]): FacetResult[] {
  return fields.map((field) => {
    const json = body.facets?.[field];
    if (field === STOCK_LEVEL_FIELD) {
      const below = QueryFacetSchema.safeParse(json);
      return { field, values: below.success && below.data.count > 0 ? [{ value: BELOW_MINIMUM, count: below.data.count }] : [] };
    }
    const buckets = JsonFacetSchema.safeParse(json);
    if (buckets.success) return { field, values: buckets.data.buckets.map((b) => ({ value: String(b.val), count: b.count })) };
    const flat = body.facet_counts?.facet_fields?.[field];
    if (Array.isArray(flat)) {
      const values: { value: string; count: number }[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) {
        const count = Number(flat[i + 1]);
        if (Number.isFinite(count) && count > 0) values.push({ value: String(flat[i]), count });
      }
      return { field, values };
    }
    return { field, values: [] };
  });
}

/**
 * Highlight snippets with our markers. A pipeline that ignores `hl.tag.pre/post` answers with
 * `<em>` tags instead; those are turned into markers too. Any other markup stays text.
 */
export function parseHighlighting(highlighting: SolrResponse["highlighting"]): SearchResponse["highlighting"] {
  const out: SearchResponse["highlighting"] = {};
  for (const [id, fields] of Object.entries(highlighting ?? {})) {
    out[id] = {};
    for (const [field, snippets] of Object.entries(fields)) {
      // Snippets are short by nature; a broken pipeline's whole documents are cut like their values.
      out[id][field] = snippets
        .slice(0, 3)
        .map((s) => (s.includes(HL_PRE) ? s : s.replace(/<em>/g, HL_PRE).replace(/<\/em>/g, HL_POST)).slice(0, 1_000));
    }
  }
  return out;
}

/** Spell-check collations in any of Solr's shapes: flat NamedList, map, plain strings. */
export function parseCollations(spellcheck: SolrResponse["spellcheck"]): string[] {
  const raw = spellcheck?.collations;
  const values: unknown[] = Array.isArray(raw) ? raw : raw && typeof raw === "object" ? Object.values(raw) : [];
  const out: string[] = [];
  for (const value of values) {
    if (value === "collation") continue;
    if (typeof value === "string") out.push(value);
    else if (value && typeof value === "object" && typeof (value as { collationQuery?: unknown }).collationQuery === "string") {
      out.push((value as { collationQuery: string }).collationQuery);
    }
  }
  return [...new Set(out.map((s) => s.trim()).filter(Boolean))];
}

/**
 * What one document may carry into a page or an API answer: its text values in all, and any one
 * of them. A catalogue's items are far smaller; a broken or hostile index must not make a page of
 * 100 results weigh more than the portal's answers may (app/search/page-budget.ts).
 */
export const MAX_DOC_TEXT = 16_000;
export const MAX_VALUE_TEXT = 4_000;
const MAX_LIST_ITEMS = 50;

/** The document with its text cut to MAX_DOC_TEXT in all (values in the index's order). */
export function boundDoc(raw: Record<string, unknown>): Record<string, unknown> {
  let left = MAX_DOC_TEXT;
  const cut = (text: string) => {
    const kept = text.length > Math.min(left, MAX_VALUE_TEXT) ? `${text.slice(0, Math.max(0, Math.min(left, MAX_VALUE_TEXT) - 1))}…` : text;
    left = Math.max(0, left - kept.length);
    return kept;
  };
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (left === 0 && name !== "id") break;
    if (typeof value === "string") out[name] = name === "id" ? value : cut(value);
    else if (Array.isArray(value)) out[name] = value.slice(0, MAX_LIST_ITEMS).map((v) => (typeof v === "string" ? cut(v) : v));
    else if (value !== null && typeof value === "object") out[name] = cut(JSON.stringify(value));
    else out[name] = value;
  }
  return out;
}

export function parseSolrBody(body: unknown): SolrResponse {
  const parsed = SolrResponseSchema.safeParse(body);
  if (!parsed.success) throw new FusionError("malformed", MESSAGES.failed);
  return parsed.data;
}

export function parseSearchResponse(body: unknown, facetFields: readonly string[], queryId: string | null): SearchResponse {
  const solr = parseSolrBody(body);
  return {
    docs: solr.response.docs.map((d) => toDoc(boundDoc(d))),
    total: solr.response.numFound,
    facets: parseFacets(solr, facetFields),
    highlighting: parseHighlighting(solr.highlighting),
    suggestions: parseCollations(solr.spellcheck),
    ...(queryId ? { queryId } : {}),
  };
}

const BOM_TYPES = new Set(["asset", "pm", "other"]);

/** BOM docs come with suffixed field names (`asset_number_s`); the model uses the bare keys. */
export function toBomDoc(raw: Record<string, unknown>): BomDoc {
  const byKey: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    const key = name === "id" ? "id" : fieldKey(name);
    if (!(key in byKey)) byKey[key] = Array.isArray(value) ? value.join(", ") : value;
  }
  const text = (key: string) => (byKey[key] === undefined || byKey[key] === null ? null : String(byKey[key]));
  const type = String(byKey.type ?? "other").toLowerCase();
  const quantity = Number(byKey.quantity);
  return {
    id: String(byKey.id ?? ""),
    type: (BOM_TYPES.has(type) ? type : "other") as BomType,
    org_code: text("org_code"),
    item_number: text("item_number") ?? "",
    asset_number: text("asset_number"),
    asset_serial_number: text("asset_serial_number"),
    asset_group: text("asset_group"),
    asset_description: text("asset_description"),
    quantity: byKey.quantity === undefined || byKey.quantity === null || byKey.quantity === "" || !Number.isFinite(quantity) ? null : quantity,
  };
}

const SuggestSchema = z.looseObject({
  suggest: z.record(z.string(), z.record(z.string(), z.looseObject({ suggestions: z.array(z.looseObject({ term: z.string() })) }))),
});

export function parseSuggestions(body: unknown): string[] {
  const parsed = SuggestSchema.safeParse(body);
  if (!parsed.success) return [];
  const terms = Object.values(parsed.data.suggest).flatMap((dictionary) =>
    Object.values(dictionary).flatMap((entry) => entry.suggestions.map((s) => s.term)),
  );
  return [...new Set(terms)];
}
