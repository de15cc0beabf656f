import { RequestAbortedError } from './http.errors';

/**
 * Time source for every wait in the host policy. Injected so tests can drive spacing, cooldowns and
 * robots TTLs with a manual clock and assert exact instants instead of measuring wall time.
 */
export interface Clock {
  now(): number;
  /** Calls `callback` after `ms`; the returned function cancels it (idempotent). */
  setTimer(callback: () => void, ms: number): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(callback, ms) {
    const handle = setTimeout(callback, Math.max(0, ms));
    return () => clearTimeout(handle);
  },
};

/** Resolves after `ms` on `clock`; rejects with `RequestAbortedError` as soon as `signal` aborts. */
export function sleep(clock: Clock, ms: number, url: string, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(new RequestAbortedError(url, signal.reason));
  if (ms <= 0) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      cancel();
      reject(new RequestAbortedError(url, signal?.reason));
    };
    const cancel = clock.setTimer(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Settles like `promise`, or rejects with `RequestAbortedError` when `signal` aborts first. */
export function raceAbort<T>(promise: Promise<T>, url: string, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new RequestAbortedError(url, signal.reason));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new RequestAbortedError(url, signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
