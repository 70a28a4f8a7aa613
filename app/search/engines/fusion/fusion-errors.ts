import { errorCodes } from "~/lib/closed-connection";
import { SearchError, type SearchErrorKind } from "../../errors";

export const PLATFORM = "Fusion";

export type FusionErrorKind =
  | "unauthorized"
  | "forbidden"
  | "not-found"
  | "http"
  | "unreachable"
  | "refused"
  | "timeout"
  | "malformed"
  | "not-configured"
  | "failed";

/** The engine-neutral kind of each of Fusion's failures: outages fall back to the backup catalogue. */
function searchErrorKind(reason: FusionErrorKind, httpStatus: number | undefined): SearchErrorKind {
  switch (reason) {
    case "unauthorized":
    case "forbidden":
    case "not-found":
    case "not-configured":
      return "configuration";
    case "http": {
      const status = httpStatus ?? 500;
      // A timeout or an overload answered by Fusion or a proxy in front of it: the backup helps.
      if (status >= 500 || status === 408 || status === 429) return "outage";
      // A redirect the portal will not follow (to another host, or round and round): the
      // endpoint is set up wrongly, as with an unknown profile.
      if (status >= 300 && status < 400) return "configuration";
      return "bad-request";
    }
    default:
      return "outage";
  }
}

/** Fusion failures with the spec's texts (core-search §8). */
export class FusionError extends SearchError {
  override name = "FusionError";
  constructor(
    /** What went wrong in Fusion's terms; `kind` is the engine-neutral class of it. */
    readonly reason: FusionErrorKind,
    message: string,
    readonly httpStatus?: number,
    /** The HTTP status text, for the cursor export's `HTTP {status}: {statusText}`. */
    readonly statusText?: string,
  ) {
    const kind = searchErrorKind(reason, httpStatus);
    // A 4xx the platform gives the portal is the portal's problem, not the user's request.
    super(message, kind, kind === "bad-request" ? 503 : reason === "not-found" ? 502 : 503);
    // `HTTP {status}: {message}` quotes Fusion's body: a page says the status and its standard name.
    if (reason === "http" && httpStatus !== undefined) this.userMessage = httpUserMessage(httpStatus);
  }
}

const STATUS_NAMES: Record<number, string> = {
  301: "Moved Permanently",
  302: "Found",
  303: "See Other",
  307: "Temporary Redirect",
  308: "Permanent Redirect",
  400: "Bad Request",
  408: "Request Timeout",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** `HTTP 503: Service Unavailable`: the spec's form, with nothing of what the server wrote. */
function httpUserMessage(status: number): string {
  const name = STATUS_NAMES[status];
  return name ? `HTTP ${status}: ${name}` : `HTTP ${status}`;
}

export const MESSAGES = {
  unauthorized: "Authentication failed - API key may be invalid or expired",
  forbidden: "Access forbidden - API key may not have required permissions",
  notFound: "Query profile or collection not found - check configuration",
  unreachable: `${PLATFORM} endpoint not reachable - check endpoint URL`,
  refused: `Connection refused - ${PLATFORM} service may be down`,
  timeout: `Request timeout - ${PLATFORM} service may be slow or unreachable`,
  failed: "Search request failed",
  cursorFailed: (reason: string) => `Cursor search failed: ${reason}`,
} as const;

export function httpError(status: number, message: string, statusText = ""): FusionError {
  if (status === 401) return new FusionError("unauthorized", MESSAGES.unauthorized, status, statusText);
  if (status === 403) return new FusionError("forbidden", MESSAGES.forbidden, status, statusText);
  if (status === 404) return new FusionError("not-found", MESSAGES.notFound, status, statusText);
  return new FusionError("http", `HTTP ${status}: ${message}`, status, statusText);
}

/** A transport failure (fetch rejected) → the spec's text for it. */
export function transportError(error: unknown, timedOut: boolean): FusionError {
  if (timedOut) return new FusionError("timeout", MESSAGES.timeout);
  const codes = errorCodes(error);
  if (codes.some((c) => c === "ECONNREFUSED")) return new FusionError("refused", MESSAGES.refused);
  if (codes.some((c) => c === "ENOTFOUND" || c === "EAI_AGAIN" || c === "EHOSTUNREACH" || c === "ENETUNREACH")) {
    return new FusionError("unreachable", MESSAGES.unreachable);
  }
  if (codes.some((c) => c === "ETIMEDOUT" || c === "UND_ERR_CONNECT_TIMEOUT" || c === "UND_ERR_HEADERS_TIMEOUT")) {
    return new FusionError("timeout", MESSAGES.timeout);
  }
  return new FusionError("failed", MESSAGES.failed);
}
