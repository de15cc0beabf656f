/**
 * Maps `items` with at most `width` calls in flight and yields the results in input order: one
 * board's detail requests run `pipeline_internal_concurrency` at a time (the shared host policy still
 * spaces and caps them per host), while its postings are still committed in the order it listed them.
 * An abort stops starting new calls; a consumer that stops early (or a failure) lets the calls already
 * started settle before returning, so none is left running unobserved.
 */
export async function* mapInOrder<T, R>(items: readonly T[], width: number, fn: (item: T) => Promise<R>, signal?: AbortSignal): AsyncGenerator<R> {
  const limit = Math.max(1, Math.floor(width));
  const inFlight: Array<Promise<R>> = [];
  let next = 0;
  try {
    while (next < items.length || inFlight.length > 0) {
      while (inFlight.length < limit && next < items.length) {
        signal?.throwIfAborted();
        const call = fn(items[next++]);
        call.catch(() => undefined); // observed below, in its turn
        inFlight.push(call);
      }
      yield await (inFlight.shift() as Promise<R>);
    }
  } finally {
    await Promise.allSettled(inFlight);
  }
}
