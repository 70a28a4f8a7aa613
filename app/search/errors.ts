/**
 * The few ways a search can fail, whatever the engine. Each engine maps its own failures to these;
 * the service decides by the kind alone whether the backup answers, and the web layer maps the kind
 * to a status and a page.
 *
 * - `outage`: the engine did not answer usefully (unreachable, refused, timeout, 5xx, malformed);
 *   the backup catalogue can answer instead.
 * - `configuration`: the engine answered that the portal is set up wrongly (401, 403, an unknown
 *   profile); operators must see it.
 * - `not-found`: the thing asked for does not exist.
 * - `bad-request`: the engine refused the request itself (a 4xx other than the above).
 */
export type SearchErrorKind = "outage" | "configuration" | "not-found" | "bad-request";

const STATUS: Record<SearchErrorKind, number> = { outage: 503, configuration: 502, "not-found": 404, "bad-request": 400 };

/**
 * A failure whose message is meant for the user (the spec's texts). Anything else is shown as the
 * generic "Search failed": engine internals never reach the page.
 */
export class SearchError extends Error {
  override name = "SearchError";
  readonly status: number;
  /** What operators need to know and users must not see (a file path, say), for the log. */
  detail?: string;
  /**
   * The message as a page may show it: the same, unless it quotes the engine (`HTTP 500: <what
   * Solr said>`), whose words are for operators.
   */
  userMessage: string;
  constructor(
    message: string,
    readonly kind: SearchErrorKind = "outage",
    status?: number,
  ) {
    super(message);
    this.status = status ?? STATUS[kind];
    this.userMessage = message;
  }

  get isOutage(): boolean {
    return this.kind === "outage";
  }
}

export function isOutage(error: unknown): boolean {
  return error instanceof SearchError && error.isOutage;
}

/**
 * What the search page says: the spec's text of the failure, except for a request the engine
 * refused, whose answer (Solr's parser, field names, paths) is for the log and not for the page.
 */
export function userMessageOf(error: unknown): string {
  return error instanceof SearchError && error.kind !== "bad-request" ? error.userMessage : "Search failed";
}
