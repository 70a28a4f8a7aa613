import { useEffect, useRef, useState } from "react";
import { suggestionsApiHref } from "~/search/paths";

/** Spec §4's type-ahead settings: at least 2 characters, 300 ms after the last keystroke, 8 suggestions. */
export const TYPEAHEAD = { minChars: 2, delayMs: 300, count: 8 } as const;

/** The list under the box: closed, loading, failed, or the suggestions with the one the arrows are on. */
export type Suggestions =
  | { kind: "closed" }
  | { kind: "loading" }
  | { kind: "failed" }
  | { kind: "list"; items: string[]; active: number };

const CLOSED: Suggestions = { kind: "closed" };

/** At most TYPEAHEAD.count distinct suggestions for `prefix` from the portal's API. */
async function fetchSuggestions(prefix: string, signal: AbortSignal): Promise<string[]> {
  const response = await fetch(suggestionsApiHref(prefix, TYPEAHEAD.count), { signal, headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const body = (await response.json()) as { data?: { suggestions?: unknown } };
  const found = Array.isArray(body.data?.suggestions) ? body.data.suggestions : [];
  return [...new Set(found.filter((s): s is string => typeof s === "string"))].slice(0, TYPEAHEAD.count);
}

/**
 * The type-ahead's suggestions for what is typed in the box: `ask` with the box's text (asked
 * TYPEAHEAD.delayMs after the last call, from TYPEAHEAD.minChars characters; an answer that came
 * too late is dropped), `close`, and `activate` for the arrows. A new page's `query` closes the list.
 */
export function useSuggestions(query: string) {
  const [suggestions, setSuggestions] = useState<Suggestions>(CLOSED);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const pending = useRef<AbortController>();

  const stop = () => {
    clearTimeout(timer.current);
    pending.current?.abort();
  };
  const close = () => {
    stop();
    setSuggestions(CLOSED);
  };
  useEffect(() => stop, []);
  useEffect(() => setSuggestions(CLOSED), [query]);

  async function load(prefix: string) {
    const controller = new AbortController();
    pending.current = controller;
    setSuggestions({ kind: "loading" });
    try {
      const items = await fetchSuggestions(prefix, controller.signal);
      if (!controller.signal.aborted) setSuggestions({ kind: "list", items, active: -1 });
    } catch {
      if (!controller.signal.aborted) setSuggestions({ kind: "failed" });
    }
  }

  const ask = (prefix: string) => {
    stop();
    if (prefix.length < TYPEAHEAD.minChars) {
      setSuggestions(CLOSED);
      return;
    }
    timer.current = setTimeout(() => void load(prefix), TYPEAHEAD.delayMs);
  };

  const activate = (active: number) => setSuggestions((now) => (now.kind === "list" ? { ...now, active } : now));

  return { suggestions, ask, close, activate };
}
