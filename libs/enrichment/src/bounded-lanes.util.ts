/**
 * Runs `fn` over `items` in at most `width` lanes. The lanes share one signal, linked to `parent`:
 * when a lane fails, its siblings are cancelled (no new item starts, in-flight fetches and renders
 * abort) and awaited before the first failure is rethrown, so nothing keeps running — and writing —
 * unobserved after the caller has given up.
 */
export async function mapBounded<T>(items: readonly T[], width: number, parent: AbortSignal, fn: (item: T, signal: AbortSignal) => Promise<void>): Promise<void> {
  const lanes = new AbortController();
  const onParentAbort = () => lanes.abort(parent.reason);
  if (parent.aborted) lanes.abort(parent.reason);
  else parent.addEventListener('abort', onParentAbort, { once: true });
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (next < items.length && !lanes.signal.aborted) {
      const item = items[next++];
      try {
        await fn(item, lanes.signal);
      } catch (error) {
        // The first failure is the cause; what the siblings throw while being cancelled is its echo.
        if (!failure) {
          failure = { error };
          lanes.abort(error);
        }
        return;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, lane));
  } finally {
    parent.removeEventListener('abort', onParentAbort);
  }
  if (failure) throw failure.error;
  parent.throwIfAborted();
}
