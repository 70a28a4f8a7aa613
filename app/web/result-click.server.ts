import { createHash } from "node:crypto";
import { portalCookie } from "~/web/cookie.server";

/**
 * The result click this browser last recorded, as a digest of the click (item, position, the
 * search it came from, Fusion's query id), in a cookie scoped to the item pages. Reloading the item
 * page, or coming back to it through the browser's history, sends the same link again; with the
 * cookie it is recognised and counted once. Without JavaScript too, and with no state on the server.
 */
const lastClick = portalCookie("result-click", { path: "/product", maxAge: 30 * 60 });

export interface ResultClick {
  docId: string;
  position: number;
  /** The search the click came from (the page's `back`). */
  back: string;
  queryId: string | null;
}

export function resultClickKey(click: ResultClick): string {
  return createHash("sha256")
    .update(JSON.stringify([click.docId, click.position, click.back, click.queryId ?? ""]))
    .digest("base64url")
    .slice(0, 22);
}

/** Whether this browser has already recorded the click with `key`. */
export async function isRecordedClick(request: Request, key: string): Promise<boolean> {
  try {
    return (await lastClick.parse(request.headers.get("Cookie"))) === key;
  } catch {
    return false;
  }
}

/** The Set-Cookie value that marks the click with `key` as recorded. */
export function recordedClickCookie(key: string): Promise<string> {
  return lastClick.serialize(key);
}
