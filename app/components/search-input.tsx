import { useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState, type InputHTMLAttributes, type KeyboardEvent } from "react";
import { SUGGESTION_LIST_ID, SuggestionList, suggestionId } from "./suggestion-list";
import { useSuggestions, type Suggestions } from "./use-suggestions";
import { SIGNALS_API_PATH } from "~/search/paths";

/**
 * The box's attributes, the same for the plain box (`header-search.tsx`) and the type-ahead;
 * `query` is the page's query (the box's key: a new query is a new box), not an attribute.
 */
export type SearchBoxAttributes = InputHTMLAttributes<HTMLInputElement> & { id: string; defaultValue: string; query: string };

/**
 * Usage signals (issue 22): a pick from the list is a type-ahead click, which only the browser
 * sees; its code is loaded on the first pick, outside the page's JavaScript, and only when the
 * portal records signals.
 */
function recordPick(pick: { query: string; suggestion: string; position: number }, signals: boolean): void {
  if (signals) void import("~/signals/browser.client").then((m) => m.recordTypeaheadPick(pick, true, m.pageQueue(SIGNALS_API_PATH, true))).catch(() => undefined);
}

/** The box's ARIA combobox attributes, once JavaScript runs. */
function comboboxAttributes(popup: Suggestions, open: boolean) {
  return {
    role: "combobox",
    "aria-autocomplete": "list" as const,
    "aria-expanded": open,
    "aria-controls": SUGGESTION_LIST_ID,
    "aria-activedescendant": popup.kind === "list" && popup.active >= 0 ? suggestionId(popup.active) : undefined,
  };
}

/**
 * The header's search box with type-ahead, which the server switches on (TYPEAHEAD_ENABLED, off by
 * default); its code is fetched only then (`header-search.tsx`). Without JavaScript it is the
 * plain box. With it, typing shows suggestions from `/api/suggestions` in an ARIA combobox: arrows
 * move through them, Enter or a click searches for one, Escape closes the list.
 */
export function SearchInput({ box: { query, ...box }, signals = false }: { box: SearchBoxAttributes; signals?: boolean }) {
  const [enabled, setEnabled] = useState(false);
  const { suggestions: popup, ask, close, activate } = useSuggestions(query);
  const submit = useSubmit();
  const input = useRef<HTMLInputElement>(null);
  // A combobox once JavaScript runs: the server's HTML is the plain box.
  useEffect(() => setEnabled(true), []);

  const onInput = () => ask(input.current?.value.trim() ?? "");

  const choose = (value: string, position: number) => {
    const box = input.current;
    if (!box) return;
    recordPick({ query: box.value.trim(), suggestion: value, position }, signals);
    box.value = value;
    close();
    // Remix's submit, as nav.tsx's listener would do on the form's submit event. It also keeps this
    // module's imports the framework's: importing React alone, it made the bundler give React a
    // chunk of its own on every page (+0.7 KiB compressed, docs/benchmarks.md).
    if (box.form) submit(box.form);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (popup.kind === "closed") return;
    if (event.key === "Escape") {
      event.preventDefault();
      close();
    } else if (popup.kind === "list" && popup.items.length > 0) {
      const n = popup.items.length;
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        const active = event.key === "ArrowDown" ? (popup.active + 1) % n : (popup.active <= 0 ? n : popup.active) - 1;
        activate(active);
      } else if (event.key === "Enter" && popup.active >= 0) {
        event.preventDefault();
        choose(popup.items[popup.active] ?? "", popup.active);
      }
    }
  };

  const open = enabled && popup.kind !== "closed";
  const combobox = enabled ? comboboxAttributes(popup, open) : {};
  return (
    <div className="search-input">
      <input
        ref={input}
        // A new query is a new box: its text is the page's query, not what was typed before.
        key={query}
        {...box}
        onInput={onInput}
        onKeyDown={onKeyDown}
        onBlur={close}
        {...combobox}
      />
      {enabled && <SuggestionList suggestions={popup} open={open} choose={choose} />}
    </div>
  );
}
