/**
 * Highlight markers. Engines wrap matched text in these control characters; the view escapes the
 * text and turns each marked run into a `<mark>` element. They never reach HTML as markup. The JSON
 * API carries them as they are (docs/decisions/002).
 */
export const HL_PRE = "\u0001";
export const HL_POST = "\u0002";

export interface HighlightPart {
  text: string;
  mark: boolean;
}

/**
 * Splits engine text at the highlight markers. Stray or nested markers are dropped; a run left
 * open stays marked to the end. Markers never appear in the parts.
 */
export function splitHighlights(text: string): HighlightPart[] {
  if (!text.includes(HL_PRE) && !text.includes(HL_POST)) return text === "" ? [] : [{ text, mark: false }];
  const parts: HighlightPart[] = [];
  let open = false;
  let buffer = "";
  const flush = () => {
    if (buffer === "") return;
    const last = parts[parts.length - 1];
    if (last && last.mark === open) last.text += buffer;
    else parts.push({ text: buffer, mark: open });
    buffer = "";
  };
  for (const c of text) {
    if (c === HL_PRE || c === HL_POST) {
      const opening = c === HL_PRE;
      if (opening !== open) {
        flush();
        open = opening;
      }
      continue;
    }
    buffer += c;
  }
  flush();
  return parts;
}
