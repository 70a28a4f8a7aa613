import { SignalQueue } from "./queue";

let queue: SignalQueue | null = null;

/**
 * The page's one queue of signals, sending to POST /api/signals; whatever waits when the page is
 * hidden or left leaves with the beacon. Made on first use, in the browser only.
 */
export function pageQueue(enabled: boolean): SignalQueue {
  if (queue) return queue;
  const made = new SignalQueue({
    enabled,
    send: (body) =>
      fetch("/api/signals", { method: "POST", headers: { "Content-Type": "application/json" }, body, keepalive: true }).then(
        (r) => r.ok || (r.status >= 400 && r.status < 500 && r.status !== 429),
      ),
    beacon: (body) => navigator.sendBeacon("/api/signals", new Blob([body], { type: "application/json" })),
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") made.hide();
  });
  queue = made;
  return made;
}
