/** A navigation's state asking the next page to put the focus in the header's search box (after an export). */
export const FOCUS_SEARCH_BOX = { focus: "site-search" } as const;

export function wantsSearchBoxFocus(state: unknown): boolean {
  return typeof state === "object" && state !== null && (state as { focus?: unknown }).focus === FOCUS_SEARCH_BOX.focus;
}
