import { SEARCH_EXPORT_PATH } from "~/search/paths";
import type { ExportScope } from "./search-export";

/** The name of the dialog's submit that exports (value `1`), told apart from Select All / None (`export-select`). */
export const EXPORT_GO = "export-go";

/** The file's address from the dialog's form, with the fields a GET submission of it would send. */
export function searchExportHref(form: FormData): string {
  const params = new URLSearchParams();
  for (const [name, value] of form) if (typeof value === "string") params.append(name, value);
  return `${SEARCH_EXPORT_PATH}?${params}`;
}

/** What the export dialog shows; built on the server, rendered by the dialog component. */
export type ExportStep = "choose" | "limit" | "no-fields" | "empty" | "failed" | "backup" | "started";

export interface ExportDialogView {
  scope: ExportScope;
  step: ExportStep;
  query: string;
  /** Records in scope, before the limit. */
  total: number;
  limit: number;
  /** Records that will be written. */
  records: number;
  needsConfirmation: boolean;
  limitMessage: string;
  capMessage: string | null;
  /** Said before the download whenever it will hold fewer records than the search has. */
  truncationMessage: string | null;
  fields: { key: string; label: string; checked: boolean }[];
  filename: string;
  /**
   * The first rows' cells of every exportable field (`keys`, in the order of `fields`), so the
   * preview follows the boxes ticked, with and without JavaScript.
   */
  preview: { totalRows: number; keys: string[]; cells: string[][] };
  /** Search parameters for the form's hidden inputs. */
  hidden: [string, string][];
  cancelHref: string;
  exportHref: string;
  continueHref: string;
  /**
   * The file's address once the form was submitted to export without JavaScript (step `started`):
   * the page then shows no dialog and starts this download itself.
   */
  startedHref: string | null;
  /**
   * Said before the download when the file would not come from the search platform (decision 022):
   * the page itself came from the backup, or the platform stopped answering when the download was
   * asked for (step `backup`, with the choice of `backupHref` or trying again with `exportHref`).
   */
  backupNotice: string | null;
  backupHref: string | null;
}

