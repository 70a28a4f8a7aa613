/**
 * Pages are rendered one after the other. Rendering is CPU work on the one thread, so rendering
 * several pages at once finishes none of them sooner: interleaved, a burst of ten requests all end
 * as late as the last one would. In turn, the first ends after one render time, the second after
 * two, and the order is that of arrival.
 *
 * `work` gets a `done` callback and must call it once its turn is over (which may be before the
 * promise it returns settles, or after); a `work` that throws at once gives its turn up by itself.
 */
let previous: Promise<void> = Promise.resolve();

export function inTurn<T>(work: (done: () => void) => Promise<T>): Promise<T> {
  const before = previous;
  let done!: () => void;
  previous = new Promise<void>((resolve) => (done = resolve));
  return before.then(() => {
    try {
      return work(done);
    } catch (error) {
      // A render that fails to start must not hold up every page after it.
      done();
      throw error;
    }
  });
}
