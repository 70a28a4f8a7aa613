import { useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState, type InputHTMLAttributes, type KeyboardEvent } from "react";

/** Spec §4's type-ahead settings: at least 2 characters, 300 ms after the last keystroke, 8 suggestions. */
export const TYPEAHEAD = { minChars: 2, delayMs: 300, count: 8 } as const;

const LIST_ID = "site-search-suggestions";
const optionId = (index: number) => `site-search-option-${index}`;

/**
 * The box's attributes, the same for the plain box (`header-search.tsx`) and the type-ahead;
 * `query` is the page's query (the box's key: a new query is a new box), not an attribute.
 */
export type SearchBoxAttributes = InputHTMLAttributes<HTMLInputElement> & { id: string; defaultValue: string; query: string };

type Popup =
  | { kind: "closed" }
  | { kind: "loading" }
  | { kind: "failed" }
  | { kind: "list"; items: string[]; active: number };

/** The list under the box: loading, failed, none found, or the suggestions as options. */
function SuggestionList({ popup, open, choose }: { popup: Popup; open: boolean; choose: (value: string, position: number) => void }) {
  return (
    <div className="typeahead" hidden={!open}>
      {popup.kind === "loading" && <p className="typeahead-status">Loading suggestions...</p>}
      {popup.kind === "failed" && <p className="typeahead-status error">Failed to load suggestions</p>}
      {popup.kind === "list" && popup.items.length === 0 && <p className="typeahead-status">No suggestions found</p>}
      <ul role="listbox" id={LIST_ID} aria-label="Suggestions">
        {popup.kind === "list" &&
          popup.items.map((item, index) => (
            <li
              key={item}
              id={optionId(index)}
              role="option"
              aria-selected={index === popup.active}
              // Keeps the focus in the box, whose blur would close the list before the click.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(item, index)}
            >
              {item}
            </li>
          ))}
      </ul>
    </div>
  );
}

/**
 * Usage signals (issue 22): a pick from the list is a type-ahead click, which only the browser
 * sees; its code is loaded on the first pick, outside the page's JavaScript, and only when the
 * portal records signals.
 */
function recordPick(pick: { query: string; suggestion: string; position: number }, signals: boolean): void {
  if (signals) void import("~/signals/browser.client").then((m) => m.recordTypeaheadPick(pick, true)).catch(() => undefined);
}

/** The box's ARIA combobox attributes, once JavaScript runs. */
function comboboxAttributes(popup: Popup, open: boolean) {
  return {
    role: "combobox",
    "aria-autocomplete": "list" as const,
    "aria-expanded": open,
    "aria-controls": LIST_ID,
    "aria-activedescendant": popup.kind === "list" && popup.active >= 0 ? optionId(popup.active) : undefined,
  };
}

/** At most TYPEAHEAD.count distinct suggestions for `prefix` from the portal's API. */
async function fetchSuggestions(prefix: string, signal: AbortSignal): Promise<string[]> {
  const params = new URLSearchParams({ q: prefix, limit: String(TYPEAHEAD.count) });
  const response = await fetch(`/api/suggestions?${params}`, { signal, headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const body = (await response.json()) as { data?: { suggestions?: unknown } };
  const found = Array.isArray(body.data?.suggestions) ? body.data.suggestions : [];
  return [...new Set(found.filter((s): s is string => typeof s === "string"))].slice(0, TYPEAHEAD.count);
}

/**
 * The header's search box with type-ahead, which the server switches on (TYPEAHEAD_ENABLED, off by
 * default); its code is fetched only then (`header-search.tsx`). Without JavaScript it is the
 * plain box. With it, typing shows suggestions from `/api/suggestions` in an ARIA combobox: arrows
 * move through them, Enter or a click searches for one, Escape closes the list.
 */
export function SearchInput({ box: { query, ...box }, signals = false }: { box: SearchBoxAttributes; signals?: boolean }) {
  const [enabled, setEnabled] = useState(false);
  const [popup, setPopup] = useState<Popup>({ kind: "closed" });
  const submit = useSubmit();
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const pending = useRef<AbortController>();

  const stop = () => {
    clearTimeout(timer.current);
    pending.current?.abort();
  };
  const close = () => {
    stop();
    setPopup({ kind: "closed" });
  };
  useEffect(() => stop, []);
  // A combobox once JavaScript runs: the server's HTML is the plain box.
  useEffect(() => setEnabled(true), []);
  // A new search (a new page) closes the list.
  useEffect(() => setPopup({ kind: "closed" }), [query]);

  async function load(prefix: string) {
    const controller = new AbortController();
    pending.current = controller;
    setPopup({ kind: "loading" });
    try {
      const items = await fetchSuggestions(prefix, controller.signal);
      if (!controller.signal.aborted) setPopup({ kind: "list", items, active: -1 });
    } catch {
      if (!controller.signal.aborted) setPopup({ kind: "failed" });
    }
  }

  const onInput = () => {
    stop();
    const prefix = input.current?.value.trim() ?? "";
    if (prefix.length < TYPEAHEAD.minChars) {
      setPopup({ kind: "closed" });
      return;
    }
    timer.current = setTimeout(() => void load(prefix), TYPEAHEAD.delayMs);
  };

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
        setPopup({ ...popup, active });
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
      {enabled && <SuggestionList popup={popup} open={open} choose={choose} />}
    </div>
  );
}
