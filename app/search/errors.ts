/**
 * Errors whose message is meant for the user (the spec's texts). Anything else is shown as the
 * generic "Search failed": engine internals never reach the page.
 */
export class SearchError extends Error {
  override name = "SearchError";
  constructor(
    message: string,
    readonly status = 503,
  ) {
    super(message);
  }
}

export function userMessageOf(error: unknown): string {
  return error instanceof SearchError ? error.message : "Search failed";
}
