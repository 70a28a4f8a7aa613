import { getConfig } from "~/config.server";
import { HOME_PATH } from "~/search/paths";
import { requestIdOf } from "./http.server";
import { createEnvelope, refusalResponse, type EnvelopeRequest } from "./envelope.server";
import { problemPage } from "./problem-page.server";
import { signalSession } from "./signals.server";

/**
 * The envelope of this configuration, for scripts/server.mjs (which reaches it through the
 * server build's entry module): `check` decides and gives the headers and nonce; `refuse` makes the
 * answer to a refused request.
 */
export function serverEnvelope() {
  const config = getConfig();
  const check = createEnvelope({
    appUrl: config.appUrl,
    formTargets: config.sso ? [new URL(config.sso.issuer).origin] : [],
    imageHosts: config.imageHosts,
    requestsPerMinute: config.rateLimits.requestsPerMinute,
    signInsPerMinute: config.rateLimits.signInsPerMinute,
    embed: { origins: config.embedOrigins },
  });
  return {
    check,
    /** Usage signals: the session cookie of a first visit and the headers the app reads (signals.server.ts). */
    signalSession,
    refuse(request: EnvelopeRequest, verdict: ReturnType<typeof check>): Response {
      const requestId = requestIdOf(new Request("http://portal.invalid/", { headers: { "x-request-id": String(request.headers["x-request-id"] ?? "") } }));
      return refusalResponse(request, verdict, requestId, (message, status) => problemPage(message, status, { backHref: HOME_PATH }));
    },
  };
}
