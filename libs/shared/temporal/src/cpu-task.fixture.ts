// Test fixture for CpuTaskPool: a deliberately CPU-bound function (runs in a worker thread).
import { threadId } from 'node:worker_threads';

export function burn(input: { ms: number }): { iterations: number } {
  const end = Date.now() + input.ms;
  let iterations = 0;
  while (Date.now() < end) iterations += 1;
  return { iterations };
}

export function spinForever(): never {
  for (;;) {
    // never yields: only terminating the thread stops it
  }
}

export function fail(): never {
  throw new TypeError('fixture failure');
}

/** Which thread ran the call (the pool's warm-up must reach every thread). */
export function whichThread(): number {
  return threadId;
}
