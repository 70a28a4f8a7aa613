import { useEffect } from "react";
import { pageQueue } from "./page-queue";
import { eventId } from "./queue";

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
