/**
 * Runs `fn` over `items` in at most `width` lanes. The lanes share one signal, linked to `parent`:
 * when a lane fails, its siblings are cancelled (no new item starts, in-flight fetches and renders
 * abort) and awaited before the first failure is rethrown, so nothing keeps running — and writing —
 * unobserved after the caller has given up.
 */
export async function mapBounded<T>(items: readonly T[], width: number, parent: AbortSignal, fn: (item: T, signal: AbortSignal) => Promise<void>): Promise<void> {
  let next = 0;
  await runLanes(Math.min(width, items.length), parent, async (signal) => {
    while (next < items.length && !signal.aborted) await fn(items[next++], signal);
  });
}

/**
 * Runs `lane` `width` times at once (at least once) under one signal linked to `parent`; the first
 * lane to fail cancels the others, which are awaited before that failure is rethrown.
 */
async function runLanes(width: number, parent: AbortSignal, lane: (signal: AbortSignal) => Promise<void>): Promise<void> {
  const lanes = new AbortController();
  const onParentAbort = () => lanes.abort(parent.reason);
  if (parent.aborted) lanes.abort(parent.reason);
  else parent.addEventListener('abort', onParentAbort, { once: true });
  let failure: { error: unknown } | undefined;
  const guarded = async () => {
    try {
      await lane(lanes.signal);
    } catch (error) {
      // The first failure is the cause; what the siblings throw while being cancelled is its echo.
      if (!failure) {
        failure = { error };
        lanes.abort(error);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, width) }, guarded));
  } finally {
    parent.removeEventListener('abort', onParentAbort);
  }
  if (failure) throw failure.error;
  parent.throwIfAborted();
}

/**
 * mapBounded over items that arrive while the lanes run: a lane that is free takes the next queued
 * item, and when the queue is empty asks `next` for more (one call at a time, shared by the lanes
 * waiting for it). So one slow item (a page render) holds only its own lane, never a whole batch.
 * Ends once `next` returned nothing and every lane is idle; returns how many items ran. Failure and
 * cancel behave as in mapBounded.
 */
export async function pullBounded<T>(
  width: number,
  parent: AbortSignal,
  next: () => Promise<readonly T[]>,
  fn: (item: T, signal: AbortSignal) => Promise<void>,
): Promise<number> {
  const queue: T[] = [];
  let refill: Promise<void> | null = null;
  let exhausted = false;
  let ran = 0;
  const take = async (): Promise<T | undefined> => {
    while (queue.length === 0 && !exhausted) {
      refill ??= next()
        .then((items) => {
          if (items.length === 0) exhausted = true;
          queue.push(...items);
        })
        .finally(() => (refill = null));
      await refill;
    }
    return queue.shift();
  };
  await runLanes(Math.max(1, width), parent, async (signal) => {
    for (let item = await take(); item !== undefined && !signal.aborted; item = await take()) {
      await fn(item, signal);
      ran += 1;
    }
  });
  return ran;
}
