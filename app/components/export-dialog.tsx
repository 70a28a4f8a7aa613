import { useNavigate } from "@remix-run/react";
import { HiddenInputs } from "./hidden-inputs";
import { useHydrated } from "./hydration";
import { AppLink } from "./nav";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { flushSync } from "react-dom";
import { downloadWithProgress } from "~/export/download.client";
import { failureQuestion, RETRY_DELAY_MS } from "~/export/failure";
import { EXPORT_GO, searchExportHref, type ExportDialogView } from "~/export/export-view";
import { progressOf, progressText, type ExportProgress } from "~/export/progress";
import { SEARCH_PATH } from "~/search/paths";
import { FOCUS_SEARCH_BOX } from "./focus-state";
import { resultsText } from "~/search/result-count";
import { ExportButtonLabel, ExportPreview, FieldChooser } from "./export-fields";

type Jsonified<T> = { [K in keyof T]: T[K] };
type Dialog = Jsonified<ExportDialogView>;

const STEP_MESSAGES: Record<string, string> = {
  // Spec §8: a failed validation says `Export validation failed: {list}`.
  "no-fields": "Export validation failed: Select at least one field to export",
  empty: "Export validation failed: No data available for export",
  failed: "Export failed. Please try again.",
};

/** A dialog's `closedby`: Escape closes it, with or without JavaScript, where the browser knows the attribute. */
const CLOSED_BY_ESCAPE = { closedby: "closerequest" } as Record<string, string>;

/**
 * The export dialog. Without JavaScript it is part of the page at its own URL, every button is a
 * form submit or a link, and the stylesheet keeps the field count and the preview in step with the
 * boxes; with JavaScript it is a modal (<dialog>.showModal()), the limit confirmation is asked
 * before the download starts, and the download shows its progress while it streams.
 */
export function ExportDialog({ dialog }: { dialog: Dialog }) {
  const ref = useRef<HTMLDialogElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const navigate = useNavigate();
  const [checked, setChecked] = useState(() => new Set(dialog.fields.filter((f) => f.checked).map((f) => f.key)));
  const [confirming, setConfirming] = useState(dialog.step === "limit");
  const confirmedRef = useRef(false);
  const hydrated = useHydrated();
  useModal(ref, confirming ? "#limit-title" : "#export-title");

  const close = (state?: unknown) => navigate(dialog.cancelHref, { preventScrollReset: true, replace: true, state });
  // After the file is saved the header's box takes the focus (not the results heading nor the
  // Export menu), so a scan's Enter searches rather than exporting again.
  const closeAfterExport = () => close(FOCUS_SEARCH_BOX);
  const count = checked.size;
  const download = useDownload(dialog.records, closeAfterExport);
  // Without JavaScript the button cannot be disabled by the boxes: the server answers an export
  // without fields with the dialog and its message.
  const exportDisabled = dialog.total === 0 || (hydrated && (count === 0 || download.busy));

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.name === "export-select") return;
    e.preventDefault();
    if (count === 0 || download.busy) return;
    if (dialog.needsConfirmation && !confirmedRef.current) setConfirming(true);
    else download.start(searchExportHref(new FormData(e.currentTarget)));
  };

  return (
    <dialog
      ref={ref}
      open
      {...CLOSED_BY_ESCAPE}
      className="export-dialog"
      aria-labelledby="export-title"
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
    >
      {confirming && (
        <LimitConfirmation
          dialog={dialog}
          onContinue={() => {
            const form = formRef.current;
            if (!form) return false;
            // With JavaScript: submit the fields and file name chosen in the form (hidden but
            // still mounted), with the confirmation input rendered before the submit reads it.
            confirmedRef.current = true;
            flushSync(() => setConfirming(false));
            form.requestSubmit();
            return true;
          }}
        />
      )}
      {/* Stays mounted while the limit is asked, so the choices made in it are what gets exported.
          Without JavaScript every submit goes to the search page: Select All / None come back to
          the dialog with the boxes ticked (no browser downloads for them, text browsers included,
          which ignore `formaction`), the export to the page without the dialog, which starts the
          download and gives the header's box the focus again. */}
      <form ref={formRef} method="get" action={SEARCH_PATH} className="dialog-body export-form" hidden={confirming} onSubmit={onSubmit}>
        {/* Enter in the file name submits with the form's first submit button: make that the
            export, not Select All. */}
        <button type="submit" name={EXPORT_GO} value="1" hidden tabIndex={-1} aria-hidden="true" disabled={exportDisabled} />
        <DialogHead dialog={dialog} />
        <DialogMessages dialog={dialog} failed={download.failed} />
        <ExportParams dialog={dialog} confirmed={confirmedRef.current || dialog.step === "limit"} />
        <FieldChooser fields={dialog.fields} checked={checked} onChange={setChecked} />
        <label className="filename">
          <span>File name (optional)</span>
          <input type="text" name="filename" defaultValue={dialog.filename} placeholder="search-results.csv" maxLength={100} />
        </label>
        <ExportPreview fields={dialog.fields} preview={dialog.preview} />
        {download.busy && download.progress && <ExportStatus progress={download.progress} />}
        <p className="actions dialog-actions">
          <AppLink className="button secondary" to={dialog.cancelHref} preventScrollReset replace>
            Cancel
          </AppLink>
          <button type="submit" name={EXPORT_GO} value="1" className="export-submit" disabled={exportDisabled}>
            <ExportButtonLabel count={count} hydrated={hydrated} exporting={download.busy} />
          </button>
        </p>
      </form>
    </dialog>
  );
}

/** The search, the scope and the confirmation the export is asked with. */
function ExportParams({ dialog, confirmed }: { dialog: Dialog; confirmed: boolean }) {
  return (
    <>
      <HiddenInputs params={dialog.hidden} />
      {confirmed ? <input type="hidden" name="confirm" value="1" /> : null}
      <input type="hidden" name="export" value={dialog.scope} />
      {/* Marks the field list as sent: with every box unticked the request still means "no
          fields" instead of falling back to the preselected ones. */}
      <input type="hidden" name="fields" value="" />
    </>
  );
}

/** Opens the dialog as a modal once it is on the page, with the focus on its title (read from its top). */
function useModal(ref: React.RefObject<HTMLDialogElement>, focus: string) {
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    if (element.open) element.close();
    element.showModal();
    element.querySelector<HTMLElement>(focus)?.focus();
  }, []);
}

/**
 * The download with JavaScript: fetched and saved here, its progress shown while it streams; an
 * answer that is no file (the dialog with a message, an error page) is shown as the page.
 */
function useDownload(records: number, close: () => void) {
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const [failed, setFailed] = useState(false);
  const busy = progress !== null && !progress.isComplete && !failed;
  const start = (url: string) => {
    setFailed(false);
    setProgress(progressOf(0, records, 0));
    downloadWithProgress(url, records, setProgress).then(
      (outcome) => {
        if (outcome.kind === "page") window.location.assign(outcome.url);
        // Spec §4: the busy state ends about a second after success.
        else setTimeout(close, 1000);
      },
      (error: unknown) => {
        console.error("Export failed:", error);
        setFailed(true);
        const reason = error instanceof Error && error.message ? error.message : "Unknown error";
        if (askToRetry(failureQuestion(reason))) setTimeout(() => start(url), RETRY_DELAY_MS);
      },
    );
  };
  return { progress, failed, busy, start };
}

/** Spec §8: a confirm dialog asks whether to try again; where there is none, an alert says what failed. */
function askToRetry(question: string): boolean {
  if (typeof window.confirm === "function") return window.confirm(question);
  window.alert(question);
  return false;
}

/** The spec's 'Export Limit' confirmation; Continue Export is a link that works without JavaScript too. */
function LimitConfirmation({ dialog, onContinue }: { dialog: Dialog; onContinue: () => boolean }) {
  return (
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
            if (onContinue()) e.preventDefault();
          }}
        >
          Continue Export
        </a>
        <AppLink className="button secondary" to={dialog.cancelHref} preventScrollReset replace>
          Cancel
        </AppLink>
      </p>
    </div>
  );
}

function DialogHead({ dialog }: { dialog: Dialog }) {
  return (
    <>
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
        {resultsText(dialog.total, dialog.query)}
        {dialog.scope === "page" ? " on this page" : ""}
      </p>
      {dialog.truncationMessage && <p className="truncation">{dialog.truncationMessage}</p>}
      {dialog.capMessage && <p className="muted cap-message">{dialog.capMessage}</p>}
    </>
  );
}

/** The step's message (with Retry after a failure, also one in this browser) and the backup notice. */
function DialogMessages({ dialog, failed }: { dialog: Dialog; failed: boolean }) {
  const message = failed ? STEP_MESSAGES.failed : STEP_MESSAGES[dialog.step];
  return (
    <>
      {message && (
        <p className="dialog-error" role="alert">
          {message}
          {(failed || dialog.step === "failed") && (
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
    </>
  );
}

/** The download's progress while it streams (core §3 "Export progress"): records, percentage, time left. */
function ExportStatus({ progress }: { progress: ExportProgress }) {
  return (
    <div className="export-progress" role="status">
      <progress max={progress.total || 1} value={progress.fetched} aria-label="Export progress" />
      <p>{progressText(progress)}</p>
    </div>
  );
}
