import { useSubmit } from "@remix-run/react";
import type { SelectHTMLAttributes } from "react";
import { HiddenInputs } from "./hidden-inputs";
import { WithoutScript } from "./hydration";
import { AppForm, AppLink } from "./nav";
import type { PagerView } from "~/search/pager";

interface PagerProps {
  pager: PagerView;
  rowsPerPage: number;
  pageSizes: readonly number[];
  hidden: [string, string][];
  action: string;
}

export function Pager({ pager, rowsPerPage, pageSizes, hidden, action }: PagerProps) {
  return (
    <div className="pager-bar">
      <PageList pager={pager} name="Pages" ends />
      <AppForm action={action} className="inline-form">
        <HiddenInputs params={hidden} omit={["page"]} />
        <label htmlFor="jump-to">Jump To</label>
        <input id="jump-to" name="page" type="number" min={1} max={pager.totalPages} inputMode="numeric" placeholder={String(pager.page)} required />
        <button type="submit" className="small">
          Go
        </button>
      </AppForm>
      <AppForm action={action} className="inline-form">
        <HiddenInputs params={hidden} omit={["rows", "page"]} />
        <label htmlFor="page-size">Show</label>
        <PageSizeSelect id="page-size" name="rows" sizes={pageSizes} value={rowsPerPage} />
        <WithoutScript>
          <button type="submit" className="small">
            Apply
          </button>
        </WithoutScript>
      </AppForm>
    </div>
  );
}

/**
 * A page-size select (the results' Show, a BOM or Where Used section's): its sizes as options, the
 * one shown chosen; with JavaScript a change submits its form, keeping the scroll position.
 */
export function PageSizeSelect({ sizes, value, ...select }: { sizes: readonly number[]; value: number } & SelectHTMLAttributes<HTMLSelectElement>) {
  const submit = useSubmit();
  return (
    <select {...select} defaultValue={String(value)} onChange={(e) => submit(e.currentTarget.form, { preventScrollReset: true })}>
      {sizes.map((size) => (
        <option key={size} value={size}>
          {size}
        </option>
      ))}
    </select>
  );
}

/**
 * The page links of a pager: previous and next (and first and last when `ends`), up to 5 numbers
 * with gaps. A `section` pager (BOM, Where Used) names its section in every label and keeps the
 * scroll position, since the page holds several of them.
 */
export function PageList({ pager, name, section, ends = false }: { pager: PagerView; name: string; section?: string; ends?: boolean }) {
  const step = (what: string) => (section ? `${section}: ${what.toLowerCase()} page` : `${what} page`);
  const keep = section !== undefined;
  return (
    <nav className="pager" aria-label={name}>
      <ul>
        {ends && <PageStep href={pager.first} label={step("First")} text="«" keepScroll={keep} />}
        <PageStep href={pager.prev} label={step("Previous")} text="‹" keepScroll={keep} />
        {pager.links.map((link) =>
          link.kind === "gap" ? (
            <li key={link.key} className="gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={link.page}>
              <AppLink
                to={link.href}
                preventScrollReset={keep}
                aria-current={link.current ? "page" : undefined}
                aria-label={section ? `${section}: page ${link.page}` : `Page ${link.page}`}
              >
                {link.page}
              </AppLink>
            </li>
          ),
        )}
        <PageStep href={pager.next} label={step("Next")} text="›" keepScroll={keep} />
        {ends && <PageStep href={pager.last} label={step("Last")} text="»" keepScroll={keep} />}
      </ul>
    </nav>
  );
}

/** A step link: its arrow is the text, its accessible name the label. */
function PageStep({ href, label, text, keepScroll }: { href: string | null; label: string; text: string; keepScroll: boolean }) {
  return (
    <li>
      {href ? (
        <AppLink to={href} aria-label={label} preventScrollReset={keepScroll}>
          {text}
        </AppLink>
      ) : (
        <span className="disabled" aria-hidden="true">
          {text}
        </span>
      )}
    </li>
  );
}
