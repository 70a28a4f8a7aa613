/**
 * Work done in turns, in the order it was asked for, each turn in an iteration of the event loop of
 * its own that starts after the I/O that was waiting: new requests and the engine's answers are
 * read first. The document render (entry.server.tsx) is its only caller, and should stay so: a
 * scheduler called from deeper down (an HTTP client, a loader) couples that code to the server's
 * throughput tuning (docs/decisions/010, docs/performance.md).
 *
 * Done back to back, a burst of renders would keep the requests that arrive meanwhile from even
 * sending their query to the engine until the burst is over; their answers would then come back
 * together, and the bursts would never spread out again (ten closed-loop clients against an
 * engine with a fixed answer time keep exactly that pattern). Taking turns from `setImmediate`, a
 * request that arrives during a burst sends its query after at most one render.
 */
const waiting: (() => void)[] = [];
let scheduled = false;

function next(): void {
  const work = waiting.shift();
  if (waiting.length > 0) setImmediate(next);
  else scheduled = false;
  work?.();
}

export function inTurn<T>(work: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    waiting.push(() => {
      try {
        resolve(work());
      } catch (error) {
        reject(error);
      }
    });
    if (!scheduled) {
      scheduled = true;
      setImmediate(next);
    }
  });
}
