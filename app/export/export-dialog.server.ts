import { previewCell } from "./csv";
import {
  EXPORT_CAP,
  exportFields,
  exportParams,
  exportSize,
  parseExportRequest,
  PREVIEW_ROWS,
  type ExportScope,
} from "./search-export.server";
import type { Doc } from "~/search/engine";
import { EXPORT_GO, type ExportDialogView, type ExportStep } from "./export-view";
import type { SearchConfig } from "~/search/search-config";
import { SEARCH_EXPORT_PATH, SEARCH_PATH } from "~/search/paths";
import { searchHref, serializeSearchState, type SearchState } from "~/search/state";

const count = (n: number) => n.toLocaleString("en-US");

const STEPS: ExportStep[] = ["choose", "limit", "no-fields", "empty", "failed", "backup"];

export function exportScopeOf(params: URLSearchParams): ExportScope | null {
  const scope = params.get("export");
  return scope === "all" || scope === "page" ? scope : null;
}

/** The export dialog for the search in `state`, from the URL's export parameters. */
export function buildExportDialog(input: {
  params: URLSearchParams;
  state: SearchState;
  config: SearchConfig;
  scope: ExportScope;
  total: number;
  previewDocs: Doc[];
  limit: number;
  cap?: number;
  /**
   * When the page's results came from the backup catalogue, or the platform may fail: what the
   * dialog says of a file from the backup (`The search platform is not answering: this file would
   * come from …`); `pageFromBackup` when the page itself came from it.
   */
  backup?: { text: string; pageFromBackup: boolean };
}): ExportDialogView {
  const { params, state, config, scope, total, limit } = input;
  const cap = input.cap ?? EXPORT_CAP;
  const request = parseExportRequest(params, config);
  const select = params.get("export-select");
  const chosen =
    select === "all" ? exportFields(config) : select === "none" || params.get("fields-none") === "1" ? [] : request.fields;
  const chosenKeys = new Set(chosen.map((f) => f.key));
  const size = exportSize(total, scope, state, limit, cap);
  // An export asked for from the platform's page, submitted as the platform stopped answering: the
  // file would come from the backup, which the person is asked about first (step `backup`), never
  // given in silence.
  const fellBack = input.backup?.pageFromBackup === true && request.source !== "backup" && params.get(EXPORT_GO) === "1";
  const submitted = submittedStep(params, chosen.length, size);
  const step = STEPS.find((s) => s === params.get("export-step")) ?? (submitted === "started" && fellBack ? "backup" : submitted) ?? (size.inScope === 0 ? "empty" : "choose");
  // A page from the backup exports from the backup, as does a user who chose it (step `backup`).
  const source: "backup" | null = request.source === "backup" || (input.backup?.pageFromBackup && !fellBack) ? "backup" : null;
  const exportRequest = { state, scope, fields: chosen, filename: request.filename, source };
  const exportQuery = exportParams(exportRequest, config);
  const platformQuery = exportParams({ ...exportRequest, source: null }, config);
  const backupQuery = exportParams({ ...exportRequest, source: "backup" }, config);
  const confirmQuery = new URLSearchParams(exportQuery);
  confirmQuery.set("confirm", "1");
  // The export submitted without JavaScript (`export-go`) goes to the search page, which closes
  // the dialog and starts the download (`startedHref`); so does Continue Export.
  const continueQuery = dialogQuery(state, scope, chosen, request.filename, source, config);
  continueQuery.set("confirm", "1");
  continueQuery.set(EXPORT_GO, "1");
  const hidden = [...exportParams({ state, scope, fields: [], filename: null, source }, config)];
  return {
    scope,
    step,
    query: state.q,
    total: size.inScope,
    limit,
    records: size.records,
    needsConfirmation: size.needsConfirmation,
    limitMessage: `You are trying to export ${size.inScope} results, but the maximum export limit is ${size.max} records. Do you want to continue?`,
    capMessage: size.inScope > cap ? `Export limited to ${count(cap)} records for performance reasons` : null,
    truncationMessage:
      size.records < size.inScope ? `${count(size.records)} of ${count(size.inScope)} records will be exported.` : null,
    fields: exportFields(config).map((f) => ({ key: f.key, label: f.label, checked: chosenKeys.has(f.key) })),
    filename: request.filename ?? "",
    preview: {
      totalRows: size.records,
      keys: exportFields(config).map((f) => f.key),
      cells: input.previewDocs.slice(0, PREVIEW_ROWS).map((doc) => exportFields(config).map((f) => previewCell(doc[f.name]))),
    },
    hidden,
    cancelHref: searchHref(state, config),
    exportHref: step === "backup" ? `${SEARCH_EXPORT_PATH}?${platformQuery}` : `${SEARCH_EXPORT_PATH}?${exportQuery}`,
    continueHref: `${SEARCH_PATH}?${continueQuery}`,
    startedHref: step === "started" ? `${SEARCH_EXPORT_PATH}?${request.confirmed ? confirmQuery : exportQuery}` : null,
    backupNotice: input.backup && (source === "backup" || step === "backup") ? input.backup.text : null,
    backupHref: input.backup && step === "backup" ? `${SEARCH_EXPORT_PATH}?${backupQuery}` : null,
  };
}

/**
 * The step of an export submitted without JavaScript: refused with a message (no field, nothing to
 * export), the limit asked first, or started; null when the form was not submitted to export.
 */
function submittedStep(params: URLSearchParams, chosen: number, size: ReturnType<typeof exportSize>): ExportStep | null {
  if (params.get(EXPORT_GO) !== "1") return null;
  if (chosen === 0) return "no-fields";
  if (size.inScope === 0) return "empty";
  if (size.needsConfirmation && params.get("confirm") !== "1") return "limit";
  return "started";
}

/** The search page's URL parameters of the dialog with these choices. */
function dialogQuery(state: SearchState, scope: ExportScope, fields: { key: string }[], filename: string | null, source: "backup" | null, config: SearchConfig) {
  const params = serializeSearchState(state, config);
  params.set("export", scope);
  for (const field of fields) params.append("fields", field.key);
  if (filename?.trim()) params.set("filename", filename.trim());
  if (source) params.set("source", source);
  return params;
}

/** Parameters that belong to the page's view (export dialog, facet search), not to the search. */
export function isViewParam(name: string): boolean {
  return name.startsWith("facet-") || name.startsWith("export") || ["fields", "fields-none", "filename", "confirm", "source"].includes(name);
}
