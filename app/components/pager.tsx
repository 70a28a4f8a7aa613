import { Form, Link, useSubmit } from "@remix-run/react";
import type { PagerView } from "~/search/search-view";
import { HiddenInputs } from "./hidden-inputs";
import { useHydrated } from "./use-hydrated";

interface PagerProps {
  pager: PagerView;
  rowsPerPage: number;
  pageSizes: readonly number[];
  hidden: [string, string][];
  action: string;
}

export function Pager({ pager, rowsPerPage, pageSizes, hidden, action }: PagerProps) {
  const hydrated = useHydrated();
  const submit = useSubmit();
  return (
    <div className="pager-bar">
      <nav className="pager" aria-label="Pages">
        <ul>
          <PageStep href={pager.first} label="First" text="«" />
          <PageStep href={pager.prev} label="Previous" text="‹" />
          {pager.links.map((link) =>
            link.kind === "gap" ? (
              <li key={link.key} className="gap" aria-hidden="true">
                …
              </li>
            ) : (
              <li key={link.page}>
                <Link to={link.href} aria-current={link.current ? "page" : undefined} aria-label={`Page ${link.page}`}>
                  {link.page}
                </Link>
              </li>
            ),
          )}
          <PageStep href={pager.next} label="Next" text="›" />
          <PageStep href={pager.last} label="Last" text="»" />
        </ul>
      </nav>
      <Form method="get" action={action} className="inline-form">
        <HiddenInputs params={hidden} omit={["page"]} />
        <label htmlFor="jump-to">Jump To</label>
        <input id="jump-to" name="page" type="number" min={1} max={pager.totalPages} inputMode="numeric" placeholder={String(pager.page)} required />
        <button type="submit" className="small">
          Go
        </button>
      </Form>
      <Form method="get" action={action} className="inline-form">
        <HiddenInputs params={hidden} omit={["rows", "page"]} />
        <label htmlFor="page-size">Show</label>
        <select
          id="page-size"
          name="rows"
          defaultValue={String(rowsPerPage)}
          onChange={(e) => submit(e.currentTarget.form, { preventScrollReset: true })}
        >
          {pageSizes.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
        {!hydrated && (
          <button type="submit" className="small">
            Apply
          </button>
        )}
      </Form>
    </div>
  );
}

function PageStep({ href, label, text }: { href: string | null; label: string; text: string }) {
  return (
    <li>
      {href ? (
        <Link to={href} aria-label={`${label} page`}>
          {text}
        </Link>
      ) : (
        <span className="disabled" aria-hidden="true">
          {text}
        </span>
      )}
    </li>
  );
}
