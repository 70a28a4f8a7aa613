import type { AppLoadContext } from "@remix-run/node";
import { services } from "~/registry.server";
import { MAX_BATCH, SignalBatchSchema } from "~/signals/model.server";
import { apiData, apiError, handleApi } from "./api.server";
import { SIGNALS_MAX_BYTES } from "./envelope.server";
import { describeZodError, readBoundedText } from "./http.server";
import { signalContextOf } from "./page-signals.server";

/** Same-site by the browser's Fetch metadata, else by Origin; a request with neither is no browser's cross-site request. */
function isSameSite(request: Request): boolean {
  const site = request.headers.get("Sec-Fetch-Site");
  if (site) return site === "same-origin" || site === "none";
  const origin = request.headers.get("Origin");
  if (!origin) return true;
  try {
    return new URL(origin).host === new URL(request.url).host;
  } catch {
    return false;
  }
}

/**
 * POST /api/signals `{signals, source, version}`: what only the browser knows (the time spent on an
 * item page, a type-ahead pick), stored under the server's session (the load context's) and user
 * (a client cannot name either), once per event id.
 */
export function signalsApi(request: Request, context: AppLoadContext) {
  return handleApi(request, context, async ({ requestId }) => {
    if (request.method !== "POST") return apiError("Signals are sent with POST.", 405, requestId);
    // The envelope refuses cross-site posts before the app; this holds without it too.
    if (!isSameSite(request)) return apiError("Signals are accepted from this site's pages only.", 403, requestId);
    const text = await readBoundedText(request, SIGNALS_MAX_BYTES);
    if (text === null) return apiError(`A batch of signals may be at most ${SIGNALS_MAX_BYTES / 1024} KiB.`, 413, requestId);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return apiError("The body is not JSON: expected {signals, source, version}.", 400, requestId);
    }
    const count = (body as { signals?: unknown } | null)?.signals;
    if (Array.isArray(count) && count.length > MAX_BATCH) return apiError(`A batch may hold at most ${MAX_BATCH} signals.`, 413, requestId);
    const parsed = SignalBatchSchema.safeParse(body);
    if (!parsed.success) return apiError(`Not a batch of signals: ${describeZodError(parsed.error)}`, 400, requestId);
    const signals = services().signals;
    if (!signals.enabled) return apiData({ stored: 0, duplicates: 0, enabled: false }, requestId, { status: 202 });
    const stored = signals.acceptFromClient(parsed.data.signals, await signalContextOf(request, context));
    if (stored === null) {
      return apiError("Too many signals from this session. Please wait a moment.", 429, requestId);
    }
    return apiData({ stored, duplicates: parsed.data.signals.length - stored, enabled: true }, requestId, { status: 202 });
  });
}
