/**
 * In-process wake-up of a run's live enrichment consumer: the worker hands one notifier to its
 * discovery activities (notify after each committed batch of observations) and to its enrichment
 * consumer (wait instead of sleeping a full poll interval). The consumer's durable poll stays the
 * fallback: a family running in another worker process, or a commit made before this process
 * started, is still found by the next poll.
 *
 * Each run has a commit counter. The consumer reads it before it queries the database and waits for
 * it to move past that reading, so a commit that lands between the query and the wait is never lost.
 */
export class RunCommitNotifier {
  private readonly counters = new Map<string, number>();
  private readonly waiters = new Map<string, Set<() => void>>();

  /** Runs remembered at most (oldest forgotten first); a forgotten run only falls back to the poll. */
  constructor(private readonly maxRuns = 1_000) {}

  /** Jobs of `runId` were just committed (the writer transaction is done). */
  notify(runId: string): void {
    this.counters.delete(runId); // re-inserted last: the map's order is least recently notified first
    this.counters.set(runId, this.count(runId) + 1);
    if (this.counters.size > this.maxRuns) this.counters.delete(this.counters.keys().next().value as string);
    const waiting = this.waiters.get(runId);
    if (!waiting) return;
    this.waiters.delete(runId);
    for (const wake of waiting) wake();
  }

  /** The run's commit counter now: pass it to wait() after reading the database. */
  count(runId: string): number {
    return this.counters.get(runId) ?? 0;
  }

  /**
   * Resolves 'commit' as soon as the run's counter is past `seen` (at once if it already is),
   * 'timeout' after `timeoutMs`; rejects with the signal's reason when it aborts. Leaves no timer
   * or listener behind either way.
   */
  wait(runId: string, seen: number, timeoutMs: number, signal?: AbortSignal): Promise<'commit' | 'timeout'> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.count(runId) > seen) return Promise.resolve('commit');
    return new Promise((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const set = this.waiters.get(runId);
        set?.delete(wake);
        if (set?.size === 0) this.waiters.delete(runId);
      };
      const wake = () => {
        settle();
        resolve('commit');
      };
      const onAbort = () => {
        settle();
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        settle();
        resolve('timeout');
      }, timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      const set = this.waiters.get(runId) ?? new Set<() => void>();
      set.add(wake);
      this.waiters.set(runId, set);
    });
  }
}
