import { useSubmit } from "@remix-run/react";
import { HiddenInputs } from "./hidden-inputs";
import { WithoutScript } from "./hydration";
import { AppForm, AppLink } from "./nav";
import type { SortOption } from "~/search/search-view";

interface SearchWithinProps {
  terms: { term: string; removeHref: string }[];
  clearHref: string | null;
  disabledReason: string | null;
  hidden: [string, string][];
  action: string;
}

export function SearchWithin({ terms, clearHref, disabledReason, hidden, action }: SearchWithinProps) {
  const disabled = disabledReason !== null;
  return (
    <div className="search-within">
      <AppForm action={action} className="inline-form">
        <HiddenInputs params={hidden} omit={["page"]} />
        <label htmlFor="search-within">Search within</label>
        <input
          id="search-within"
          type="search"
          name="within"
          placeholder={disabled ? disabledReason : "Search within results"}
          disabled={disabled}
          maxLength={200}
          autoComplete="off"
          aria-describedby={disabled ? "search-within-note" : undefined}
          key={terms.map((t) => t.term).join("\u0000")}
        />
        <button type="submit" className="small" disabled={disabled}>
          Add
        </button>
        {disabled && (
          <span id="search-within-note" className="visually-hidden">
            {disabledReason}
          </span>
        )}
      </AppForm>
      {terms.length > 0 && (
        <ul className="within-tags" aria-label="Search-within terms">
          {terms.map((t) => (
            <li key={t.term} className="chip">
              <span>{t.term}</span>
              <AppLink to={t.removeHref} aria-label={`Remove search-within term ${t.term}`}>
                ×
              </AppLink>
            </li>
          ))}
          {clearHref && (
            <li>
              <AppLink to={clearHref} className="text-button">
                Clear all
              </AppLink>
            </li>
          )}
        </ul>
      )}
    </div>
  );
}

interface SortFormProps {
  options: SortOption[];
  value: string;
  hidden: [string, string][];
  action: string;
}

export function SortForm({ options, value, hidden, action }: SortFormProps) {
  const submit = useSubmit();
  const known = options.some((o) => o.value === value);
  return (
    <AppForm action={action} className="inline-form sort-form">
      <HiddenInputs params={hidden} omit={["sort", "page"]} />
      <label htmlFor="sort-by">Sort By</label>
      <select
        id="sort-by"
        name="sort"
        defaultValue={value}
        key={value}
        onChange={(e) => submit(e.currentTarget.form, { preventScrollReset: true })}
      >
        {!known && <option value={value}>Column sort</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <WithoutScript>
        <button type="submit" className="small">
          Sort
        </button>
      </WithoutScript>
    </AppForm>
  );
}
