import type { ExportDialogView } from "~/export/export-view";
import { useNonce } from "./nonce";

type Fields = ExportDialogView["fields"];

/** The id of the checkbox of the `index`-th field: the preview's columns follow it by CSS. */
const boxId = (index: number) => `export-field-${index}`;
const columnClass = (index: number) => `export-col-${index}`;

/**
 * Rules that hide the preview column of every unticked field, and the preview when none is ticked:
 * the preview follows the boxes without JavaScript (`:has()`), and with it the same way. Only ids
 * and class names of our own make the selectors, never a field's text.
 */
export function previewRules(count: number): string {
  const rules = Array.from({ length: count }, (_, i) => `.export-form:has(#${boxId(i)}:not(:checked)) .${columnClass(i)} { display: none; }`);
  return [...rules, ".export-form:not(:has(.field-grid input:checked)) .preview { display: none; }"].join("\n");
}

/**
 * The field checkboxes with Select All and Select None: without JavaScript submits of the form,
 * whose action is the dialog's own page (never the download), which comes back with the boxes ticked.
 */
export function FieldChooser({ fields, checked, onChange }: { fields: Fields; checked: ReadonlySet<string>; onChange: (next: Set<string>) => void }) {
  const select = (keys: string[]) => (e: React.MouseEvent) => {
    e.preventDefault();
    onChange(new Set(keys));
  };
  return (
    <fieldset className="export-fields">
      <legend>Fields</legend>
      <div className="field-tools">
        <button type="submit" name="export-select" value="all" className="text-button" onClick={select(fields.map((f) => f.key))}>
          Select All
        </button>
        <button type="submit" name="export-select" value="none" className="text-button" onClick={select([])}>
          Select None
        </button>
      </div>
      <div className="field-grid">
        {fields.map((f, i) => (
          <label key={f.key}>
            <input
              type="checkbox"
              id={boxId(i)}
              name="fields"
              value={f.key}
              checked={checked.has(f.key)}
              onChange={(e) => {
                const next = new Set(checked);
                if (e.currentTarget.checked) next.add(f.key);
                else next.delete(f.key);
                onChange(next);
              }}
            />
            {f.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * The first rows of every field, each column shown only while its box is ticked (`previewRules`),
 * so the preview follows the boxes with and without JavaScript.
 */
export function ExportPreview({ fields, preview }: { fields: Fields; preview: ExportDialogView["preview"] }) {
  const nonce = useNonce();
  const columns = fields.map((f, i) => ({ key: f.key, label: f.label, className: columnClass(i), index: preview.keys.indexOf(f.key) })).filter((c) => c.index >= 0);
  if (columns.length === 0 || preview.cells.length === 0) return null;
  return (
    <section className="preview" aria-labelledby="preview-title">
      {/* The page's Content-Security-Policy allows this element by its nonce, and no other inline style. */}
      <style nonce={nonce}>{previewRules(fields.length)}</style>
      <h3 id="preview-title">
        Preview (first {preview.cells.length} of {preview.totalRows} rows)
      </h3>
      {/* Focusable, so a keyboard can scroll a preview wider than the dialog (it holds no link). */}
      <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="preview-title">
        <table className="results-table">
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.key} scope="col" className={c.className}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.cells.map((row, r) => (
              <tr key={r}>
                {columns.map((c) => (
                  <td key={c.key} className={c.className}>
                    {row[c.index]}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/**
 * "Export CSV ({n} fields)" (core §2). With JavaScript the count is text; before (and without)
 * it, the stylesheet counts the ticked boxes (`.export-form` counter), so the button follows
 * them on any page; its accessible name is then "Export CSV", which stays true.
 */
export function ExportButtonLabel({ count, hydrated, exporting }: { count: number; hydrated: boolean; exporting: boolean }) {
  if (exporting) return <>Exporting…</>;
  if (hydrated) return <>{`Export CSV (${count} fields)`}</>;
  return (
    <>
      Export CSV
      <span className="field-count" aria-hidden="true" />
    </>
  );
}
