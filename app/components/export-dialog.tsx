import { useNavigate } from "@remix-run/react";
import { AppLink, HiddenInputs, useHydrated } from "./progressive";
import { useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import type { ExportDialogView } from "~/export/export-view";
import { SEARCH_EXPORT_PATH, SEARCH_PATH } from "~/search/paths";

type Jsonified<T> = { [K in keyof T]: T[K] };

const STEP_MESSAGES: Record<string, string> = {
  // Spec §8: a failed validation says `Export validation failed: {list}`.
  "no-fields": "Export validation failed: Select at least one field to export",
  empty: "Export validation failed: No data available for export",
  failed: "Export failed. Please try again.",
};

/**
 * The export dialog. Without JavaScript it is part of the page at its own URL and every button is
 * a form submit or a link; with JavaScript it is a modal (<dialog>.showModal()), the field count
 * follows the checkboxes, and the limit confirmation is asked before the download starts.
 */
export function ExportDialog({ dialog }: { dialog: Jsonified<ExportDialogView> }) {
  const ref = useRef<HTMLDialogElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const navigate = useNavigate();
  const [checked, setChecked] = useState(() => new Set(dialog.fields.filter((f) => f.checked).map((f) => f.key)));
  const [confirming, setConfirming] = useState(dialog.step === "limit");
  const [exporting, setExporting] = useState(false);
  const confirmedRef = useRef(false);
  const hydrated = useHydrated();

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    if (element.open) element.close();
    element.showModal();
    // The title, not the first control, takes the focus: the dialog is read from its top.
    element.querySelector<HTMLElement>(confirming ? "#limit-title" : "#export-title")?.focus();
  }, []);

  const close = () => navigate(dialog.cancelHref, { preventScrollReset: true, replace: true });
  const count = checked.size;
  // The preview shows the fields ticked now, in the list's order.
  const previewColumns = dialog.fields
    .filter((f) => checked.has(f.key))
    .map((f) => ({ key: f.key, label: f.label, index: dialog.preview.keys.indexOf(f.key) }))
    .filter((c) => c.index >= 0);
  const message = STEP_MESSAGES[dialog.step];
  // Without JavaScript the button cannot follow the checkboxes: it stays enabled, and the server
  // answers an export without fields with the dialog and its message.
  const exportDisabled = dialog.total === 0 || (hydrated && (count === 0 || exporting));

  return (
    <dialog
      ref={ref}
      open
      className="export-dialog"
      aria-labelledby="export-title"
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
    >
      {confirming && (
        <div className="dialog-body" role="alertdialog" aria-labelledby="limit-title" aria-describedby="limit-text">
          <h2 id="limit-title" tabIndex={-1} autoFocus={dialog.step === "limit"}>
            Export Limit
          </h2>
          <p id="limit-text">{dialog.limitMessage}</p>
          {dialog.capMessage && <p className="muted">{dialog.capMessage}</p>}
          {dialog.truncationMessage && <p className="truncation">{dialog.truncationMessage}</p>}
          <p className="actions">
            <a
              className="button"
              href={dialog.continueHref}
              onClick={(e) => {
                const form = formRef.current;
                if (!form) return;
                // With JavaScript: submit the fields and file name chosen in the form (hidden but
                // still mounted), with the confirmation input rendered before the submit reads it.
                e.preventDefault();
                confirmedRef.current = true;
                flushSync(() => setConfirming(false));
                form.requestSubmit();
              }}
            >
              Continue Export
            </a>
            <AppLink className="button secondary" to={dialog.cancelHref} preventScrollReset replace>
              Cancel
            </AppLink>
          </p>
        </div>
      )}
      {/* Stays mounted while the limit is asked, so the choices made in it are what gets exported. */}
      <form
        ref={formRef}
        method="get"
        action={SEARCH_EXPORT_PATH}
        className="dialog-body"
        hidden={confirming}
        onSubmit={(e) => {
          const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
          if (submitter?.name === "export-select") return;
          if (count === 0) {
            e.preventDefault();
            return;
          }
          if (dialog.needsConfirmation && !confirmedRef.current) {
            e.preventDefault();
            setConfirming(true);
            return;
          }
          setExporting(true);
          // The download goes on by itself; close the dialog shortly after it starts.
          setTimeout(close, 1000);
        }}
      >
        {/* Enter in the file name submits with the form's first submit button: make that the
            export, not Select All. */}
        <button type="submit" hidden tabIndex={-1} aria-hidden="true" disabled={exportDisabled} />
        <div className="dialog-head">
          {/* Focused on opening, also without JavaScript (`autofocus`), where the page opens at the dialog. */}
          <h2 id="export-title" tabIndex={-1} autoFocus={dialog.step !== "limit"}>
            Export Search Results
          </h2>
          <AppLink className="dialog-close" to={dialog.cancelHref} preventScrollReset replace aria-label="Close the export dialog">
            ✕
          </AppLink>
        </div>
        <p className="muted">
          {dialog.total} results{dialog.query ? ` for "${dialog.query}"` : ""}
          {dialog.scope === "page" ? " on this page" : ""}
        </p>
        {dialog.truncationMessage && <p className="truncation">{dialog.truncationMessage}</p>}
        {message && (
          <p className="dialog-error" role="alert">
            {message}
            {dialog.step === "failed" && (
              <>
                {" "}
                <a href={dialog.exportHref}>Retry</a>
              </>
            )}
          </p>
        )}
        {dialog.backupNotice && (
          // The file would not come from the search platform: said before the download (decision 022).
          <div className="notice" role={dialog.step === "backup" ? "alert" : "status"}>
            <p>{dialog.backupNotice}</p>
            {dialog.backupHref && (
              <p className="actions">
                <a className="button" href={dialog.backupHref}>
                  Download from the backup catalogue
                </a>
                <a className="button secondary" href={dialog.exportHref}>
                  Try again
                </a>
              </p>
            )}
          </div>
        )}
        <HiddenInputs params={dialog.hidden} />
        {confirmedRef.current || dialog.step === "limit" ? <input type="hidden" name="confirm" value="1" /> : null}
        <input type="hidden" name="export" value={dialog.scope} />
        {/* Marks the field list as sent: with every box unticked the request still means "no
            fields" instead of falling back to the preselected ones. */}
        <input type="hidden" name="fields" value="" />
        <fieldset className="export-fields">
          <legend>Fields</legend>
          <div className="field-tools">
            <button
              type="submit"
              name="export-select"
              value="all"
              formAction={SEARCH_PATH}
              className="text-button"
              onClick={(e) => {
                e.preventDefault();
                setChecked(new Set(dialog.fields.map((f) => f.key)));
              }}
            >
              Select All
            </button>
            <button
              type="submit"
              name="export-select"
              value="none"
              formAction={SEARCH_PATH}
              className="text-button"
              onClick={(e) => {
                e.preventDefault();
                setChecked(new Set());
              }}
            >
              Select None
            </button>
          </div>
          <div className="field-grid">
            {dialog.fields.map((f) => (
              <label key={f.key}>
                <input
                  type="checkbox"
                  name="fields"
                  value={f.key}
                  checked={checked.has(f.key)}
                  onChange={(e) => {
                    const next = new Set(checked);
                    if (e.currentTarget.checked) next.add(f.key);
                    else next.delete(f.key);
                    setChecked(next);
                  }}
                />
                {f.label}
              </label>
            ))}
          </div>
        </fieldset>
        <label className="filename">
          <span>File name (optional)</span>
          <input type="text" name="filename" defaultValue={dialog.filename} placeholder="search-results.csv" maxLength={100} />
        </label>
        {previewColumns.length > 0 && dialog.preview.cells.length > 0 && (
          <section className="preview" aria-labelledby="preview-title">
            <h3 id="preview-title">
              Preview (first {dialog.preview.cells.length} of {dialog.preview.totalRows} rows)
            </h3>
            {/* Focusable, so a keyboard can scroll a preview wider than the dialog (it holds no link). */}
            <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="preview-title">
              <table className="results-table">
                <thead>
                  <tr>
                    {previewColumns.map((c) => (
                      <th key={c.key} scope="col">
                        {c.label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {dialog.preview.cells.map((row, i) => (
                    <tr key={i}>
                      {previewColumns.map((c) => (
                        <td key={c.key}>{row[c.index]}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        )}
        <p className="actions dialog-actions">
          <AppLink className="button secondary" to={dialog.cancelHref} preventScrollReset replace>
            Cancel
          </AppLink>
          <button type="submit" disabled={exportDisabled}>
            {exporting ? "Exporting…" : `Export CSV (${count} fields)`}
          </button>
        </p>
      </form>
    </dialog>
  );
}
