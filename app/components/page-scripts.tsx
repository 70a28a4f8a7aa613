/**
 * Remix's `<Scripts/>`, with the page's modules requested after its first frame is painted
 * (docs/decisions/048): the page is whole without them (every control is a link or a form), so its
 * first paint waits for the document and the stylesheet alone. The scripts' text is made on the
 * server (`web/page-scripts.server.ts`, whose text the root hands in); in the browser the two
 * elements hydrate as they are, their text already run (React leaves a script's text alone).
 */

/** The scripts' text on the server; in the browser, none. */
export function PageScripts({ nonce, texts = { handoff: " ", loader: " " } }: { nonce: string | undefined; texts: { handoff: string; loader: string } | undefined }) {
  // Both are the server's own text (Remix's state, and JSON made safe for a script), no engine text.
  /* eslint-disable no-restricted-syntax */
  return (
    <>
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: texts.handoff }} />
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: texts.loader }} />
    </>
  );
  /* eslint-enable no-restricted-syntax */
}
