// Loading a resource for a page: the state machine behind Loading / ErrorBanner / data, with reload
// and abort on unmount or when the key changes (a stale answer never overwrites a newer one).
import { useCallback, useEffect, useRef, useState } from 'react';
import { asApiError, type ApiError } from './http';

export type Loaded<T> = { state: 'loading'; data: T | null } | { state: 'error'; error: ApiError; data: T | null } | { state: 'ok'; data: T };

export function useApi<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]): Loaded<T> & { reload: () => void } {
  const [result, setResult] = useState<Loaded<T>>({ state: 'loading', data: null });
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    const ctrl = new AbortController();
    setResult((r) => ({ state: 'loading', data: r.data }));
    loadRef.current(ctrl.signal).then(
      (data) => !ctrl.signal.aborted && setResult({ state: 'ok', data }),
      (err) => !ctrl.signal.aborted && setResult((r) => ({ state: 'error', error: asApiError(err), data: r.data })),
    );
    return () => ctrl.abort();
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...result, reload };
}
