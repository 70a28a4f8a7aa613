import { useEffect } from "react";
import { eventId, SignalQueue } from "./queue";

let queue: SignalQueue | null = null;

/** The page's one queue, sending to POST /api/signals (and the beacon as the page goes away). */
function pageQueue(enabled: boolean): SignalQueue {
  queue ??= new SignalQueue({
    enabled,
    send: (body) =>
      fetch("/api/signals", { method: "POST", headers: { "Content-Type": "application/json" }, body, keepalive: true }).then(
        (r) => r.ok || (r.status >= 400 && r.status < 500 && r.status !== 429),
      ),
    beacon: (body) => navigator.sendBeacon("/api/signals", new Blob([body], { type: "application/json" })),
  });
  return queue;
}

/**
 * The time spent on an item page, which only the browser knows: sent as a view signal with its
 * `viewDuration` when the user leaves the page or hides it (the view itself is the server's).
 */
export function useViewDuration(docId: string | null, enabled: boolean): void {
  useEffect(() => {
    if (!docId || !enabled) return;
    const q = pageQueue(enabled);
    let shownAt = performance.now();
    let visibleMs = 0;
    const record = () => {
      visibleMs += performance.now() - shownAt;
      if (visibleMs < 500) return;
      q.push({ id: eventId(), timestamp: new Date().toISOString(), type: "view", data: { docId, viewDuration: Math.round(visibleMs) } });
      visibleMs = 0;
    };
    const onVisibility = () => {
      if (document.visibilityState === "hidden") {
        record();
        q.hide();
      } else shownAt = performance.now();
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      // Left for another page of the portal: the queue sends it with its next batch.
      if (document.visibilityState === "visible") record();
    };
  }, [docId, enabled]);
}
