import { CATALOG_FIELDS } from "~/search/catalog-fields";
import type { SearchConfig } from "~/search/search-config";
import { parseSearchParams, serializeSearchState, type SearchState } from "~/search/state";

/** Spec §5: more records than this are never exported, whatever EXPORT_LIMIT says. */
export const EXPORT_CAP = 50_000;
export const PRESELECTED_FIELDS = 10;
export const PREVIEW_ROWS = 3;

import type { ExportScope } from "./search-export";

export type { ExportScope };

export interface ExportField {
  key: string;
  name: string;
  label: string;
}

/** Exportable item fields in display order, then the remaining catalogue fields alphabetically. */
export function exportFields(config: SearchConfig): ExportField[] {
  const byKey = new Map(CATALOG_FIELDS.map((f) => [f.key, f]));
  const ordered = config.displayOrder.filter((key) => byKey.has(key));
  const rest = [...byKey.keys()].filter((key) => !ordered.includes(key)).sort();
  return [...ordered, ...rest].map((key) => {
    const field = byKey.get(key)!;
    return { key, name: field.name, label: field.label };
  });
}

export interface ExportRequest {
  state: SearchState;
  scope: ExportScope;
  /** Chosen fields; empty when the user chose none (refused with a message). */
  fields: ExportField[];
  fieldsGiven: boolean;
  filename: string | null;
  confirmed: boolean;
  /** `backup`: the user chose the backup catalogue while the search platform was not answering (decision 022). */
  source: "backup" | null;
}

/** Reads an export request from URL parameters: the search, `scope`, `fields`, `filename`, `confirm`. */
export function parseExportRequest(params: URLSearchParams, config: SearchConfig): ExportRequest {
  const all = exportFields(config);
  const wanted = params.getAll("fields");
  const chosen = wanted.length > 0 ? all.filter((f) => wanted.includes(f.key) || wanted.includes(f.name)) : all.slice(0, PRESELECTED_FIELDS);
  return {
    state: parseSearchParams(params, config),
    scope: params.get("scope") === "page" ? "page" : "all",
    fields: chosen,
    fieldsGiven: wanted.length > 0 || params.get("fields-none") === "1",
    filename: params.get("filename"),
    confirmed: params.get("confirm") === "1",
    source: params.get("source") === "backup" ? "backup" : null,
  };
}

/**
 * How many records an export of this scope writes, before and after the limit. A limit above the
 * cap counts as the cap (decision 043): the file is cut there, and the user is asked first.
 */
export function exportSize(total: number, scope: ExportScope, state: SearchState, limit: number, cap = EXPORT_CAP) {
  const inScope = scope === "page" ? Math.max(0, Math.min(state.rows, total - (state.page - 1) * state.rows)) : total;
  const max = Math.min(limit, cap);
  return { inScope, max, needsConfirmation: scope === "all" && inScope > max, records: Math.min(inScope, max) };
}

/** URL parameters of an export: the search plus the export's own choices. */
export function exportParams(request: Pick<ExportRequest, "state" | "scope" | "fields" | "filename"> & { source?: "backup" | null }, config: SearchConfig): URLSearchParams {
  const params = serializeSearchState(request.state, config);
  params.set("scope", request.scope);
  for (const field of request.fields) params.append("fields", field.key);
  if (request.filename?.trim()) params.set("filename", request.filename.trim());
  if (request.source === "backup") params.set("source", "backup");
  return params;
}
