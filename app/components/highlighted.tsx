import type { ReactNode } from "react";
import { splitHighlights } from "~/search/highlights";

/**
 * Engine text rendered as text: the runs between highlight markers become <mark>, the rest plain
 * text. Never parsed as HTML. A function rather than a component: a results page has a cell of
 * it per column and row, and most cells are plain text.
 */
export function highlighted(text: string): ReactNode {
  const parts = splitHighlights(text);
  if (parts.length === 1 && !parts[0]!.mark) return parts[0]!.text;
  return parts.map((part, i) => (part.mark ? <mark key={i}>{part.text}</mark> : part.text));
}
