import { json, type AppLoadContext } from "@remix-run/node";
import { httpClientReport } from "~/lib/http-client.server";
import { signInScopes } from "~/auth/oidc.server";
import { services } from "~/registry.server";
import { identityOf } from "./sign-in.server";

/**
 * /debug and /okta-debug: what an operator needs to see why sign-in or search misbehaves — the
 * sign-in state, the configuration, the environment and the authorization URL the portal would
 * send a browser to. Every secret is redacted, whatever its name's place in the configuration.
 */

const SECRET_NAME = /secret|password|token|api[-_]?key|apikey|cookie|credential|private/i;
export const REDACTED = "[redacted]";

// The user-info part of an address (`http://svc:PASS@host`): everything between the scheme's `//`
// and the last `@` before the path. A password may hold a stray `@`, so the match runs to the last.
const URL_USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s?#"'<>]*@/gi;

/** `text` with the user name and password of every address in it replaced, wherever it came from. */
export function redactUrlCredentials(text: string): string {
  return text.replace(URL_USER_INFO, `$1${REDACTED}@`);
}

/**
 * A copy of `value` with every secret-named field's value replaced, at any depth, and every
 * address's credentials in any other text (a FUSION_URL is not secret, its password is).
 */
export function redact(value: unknown, name = ""): unknown {
  if (SECRET_NAME.test(name) && value !== null && value !== undefined) return REDACTED;
  if (typeof value === "string") return redactUrlCredentials(value);
  if (Array.isArray(value)) return value.map((v) => redact(v));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, redact(v, k)]));
  }
  return value;
}

export async function loadDebug(request: Request, context: AppLoadContext) {
  const { config, auth, search } = services();
  if (!config.debugPages) throw json(null, { status: 404 });
  let signIn: Record<string, unknown> = { ssoEnabled: false, authenticated: true, user: null };
  let authorizationUrl: string | null = null;
  let issuer: Record<string, unknown> | null = null;
  if (auth) {
    const session = await identityOf(auth, request, context).session();
    signIn = {
      ssoEnabled: true,
      authenticated: session !== null,
      user: session ? { id: session.record.user.id, name: session.record.user.name, email: session.record.user.email } : null,
      tokenExpiresAt: session ? new Date(session.record.tokens.expiresAt).toISOString() : null,
    };
    try {
      const metadata = await auth.oidc.metadata();
      issuer = { issuer: metadata.issuer, authorization_endpoint: metadata.authorization_endpoint, end_session_endpoint: metadata.end_session_endpoint ?? null };
      const url = new URL(metadata.authorization_endpoint);
      url.search = new URLSearchParams({
        client_id: config.sso!.clientId,
        redirect_uri: `${config.appUrl}/callback`,
        response_type: "code",
        scope: signInScopes(metadata).join(" "),
        code_challenge_method: "S256",
        // Made fresh for every sign-in.
        state: "…",
        nonce: "…",
        code_challenge: "…",
      }).toString();
      authorizationUrl = url.toString();
    } catch (error) {
      issuer = { error: `Discovery failed: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  const report = {
    signIn,
    issuer,
    authorizationUrl,
    configuration: redact(config),
    engines: search.status(),
    httpClient: await httpClientReport(),
    environment: { node: process.version, platform: process.platform, pid: process.pid, uptimeSeconds: Math.round(process.uptime()) },
  };
  // Every part of the report, not only the configuration: an engine's status or a discovery error
  // may quote an address with its credentials.
  return json({ report: redactUrlCredentials(JSON.stringify(report, null, 2)) }, { headers: { "Cache-Control": "no-store" } });
}
