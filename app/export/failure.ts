/** Spec §8's question after a failed search export: the reason, where to look, and whether to try again. */
export function failureQuestion(reason: string): string {
  return `Export failed: ${reason.replace(/\.$/, "")}. Please check the browser console for more details. Would you like to try again?`;
}

/** Spec §8: the retry starts a second after the answer. */
export const RETRY_DELAY_MS = 1000;

/**
 * The reason in a failure page's title (`Export failed: {reason} – Crib Search`, the download's
 * problem page), without the site's name or a repeated "Export failed:"; null for another title.
 */
export function failureReasonOf(title: string): string | null {
  const text = title.replace(/\s+–\s+Crib Search$/, "").trim();
  if (!text) return null;
  return text.replace(/^Export failed:\s*/, "");
}
