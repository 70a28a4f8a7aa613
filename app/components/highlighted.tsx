import { splitHighlights } from "~/search/fields";

/**
 * Engine text rendered as text: the runs between highlight markers become <mark>, the rest plain
 * text. Never parsed as HTML.
 */
export function Highlighted({ text }: { text: string }) {
  return (
    <>
      {splitHighlights(text).map((part, i) => (part.mark ? <mark key={i}>{part.text}</mark> : part.text))}
    </>
  );
}
