import type { ExportScope } from "./search-export";

/** What the export dialog shows; built on the server, rendered by the dialog component. */
export type ExportStep = "choose" | "limit" | "no-fields" | "empty" | "failed";

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
  preview: { headers: string[]; rows: string[][]; totalRows: number };
  /** Search parameters for the form's hidden inputs. */
  hidden: [string, string][];
  cancelHref: string;
  exportHref: string;
  continueHref: string;
}

