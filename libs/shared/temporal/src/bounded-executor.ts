/**
 * A bounded executor with retireable generations — Node's mapping of the spec's worker-owned
 * "Temporal-sync" and "blocking-stage" ThreadPoolExecutor pools (each sized slots + 2).
 *
 * Node runs no thread per activity: the tasks submitted here are async functions whose blocking part
 * runs on libuv's thread pool (the sqlite3 driver, fs) or on worker threads (CPU-heavy parsing, see
 * CpuTaskPool). The executor bounds how many of them are in flight, so stage work never runs
 * unbounded and a burst of stage work cannot occupy every libuv thread that Temporal-side writes need
 * (the worker sizes UV_THREADPOOL_SIZE to cover both executors; see apps/worker/src/main.ts).
 *
 * Cancellation: a running task learns of it through its AbortSignal, but a provider call may ignore it.
 * The executor therefore retires the whole generation *before* its grace wait: the cancelled task (and
 * any running sibling) keeps its permit in the retired generation, while a fresh generation with the
 * full width admits the next task at once. So an immediate retry never queues behind a call that
 * ignores cancellation. Queued (not yet started) tasks move to the fresh generation.
 */

export class ExecutorCancelledError extends Error {
  override readonly name = 'ExecutorCancelledError';
  constructor(
    readonly executor: string,
    readonly phase: 'queued' | 'running',
    readonly settledWithinGrace: boolean,
  ) {
    super(
      phase === 'queued'
        ? `${executor}: task cancelled before it started`
        : `${executor}: task cancelled while running (${settledWithinGrace ? 'settled' : 'still running'} after the grace wait; its generation was retired)`,
    );
  }
}

export class ExecutorShutDownError extends Error {
  override readonly name = 'ExecutorShutDownError';
  constructor(readonly executor: string) {
    super(`${executor}: executor is shut down and admits no new work`);
  }
}

export interface ExecutorStats {
  name: string;
  width: number;
  generation: number;
  running: number;
  queued: number;
  /** Tasks still running in retired generations (cancelled calls that ignored their signal, and their siblings). */
  retiredRunning: number;
  retiredGenerations: number;
}

export interface RunOptions {
  signal?: AbortSignal;
}

export type ExecutorTask<T> = (signal: AbortSignal) => Promise<T>;

interface Generation {
  id: number;
  running: number;
}

interface Waiter {
  start: () => void;
}

export class BoundedExecutor {
  private current: Generation = { id: 1, running: 0 };
  private readonly retired = new Set<Generation>();
  private readonly queue: Waiter[] = [];
  private shuttingDown = false;
  private readonly idleWaiters: Array<() => void> = [];

  constructor(
    readonly name: string,
    readonly width: number,
    private readonly options: { graceMs?: number; onRetire?: (stats: ExecutorStats) => void } = {},
  ) {
    if (!Number.isInteger(width) || width < 1) {
      throw new RangeError(`${name}: width must be a positive integer, got ${width}`);
    }
  }

  get graceMs(): number {
    return this.options.graceMs ?? 5_000;
  }

  run<T>(task: ExecutorTask<T>, opts: RunOptions = {}): Promise<T> {
    if (this.shuttingDown) return Promise.reject(new ExecutorShutDownError(this.name));
    const outer = opts.signal;
    if (outer?.aborted) return Promise.reject(new ExecutorCancelledError(this.name, 'queued', true));

    return new Promise<T>((resolve, reject) => {
      let onQueuedAbort: (() => void) | undefined;
      let onAbort: (() => void) | undefined;
      const cleanupAbort = () => {
        if (onAbort) outer?.removeEventListener('abort', onAbort);
      };

      const waiter: Waiter = {
        start: () => {
          if (onQueuedAbort) outer?.removeEventListener('abort', onQueuedAbort);
          const generation = this.current;
          generation.running += 1;
          const inner = new AbortController();
          let settled = false;
          let cancelled = false;
          let graceTimer: NodeJS.Timeout | undefined;
          let releaseGrace: (() => void) | undefined;

          const finish = () => {
            settled = true;
            generation.running -= 1;
            if (this.retired.has(generation) && generation.running === 0) this.retired.delete(generation);
            releaseGrace?.();
            this.pump();
            this.notifyIdle();
          };

          onAbort = () => {
            if (settled || cancelled) return;
            cancelled = true;
            // Retire first, then wait: the retry must not queue behind this call.
            this.retire(generation);
            inner.abort(outer?.reason);
            void new Promise<void>((graceDone) => {
              releaseGrace = graceDone;
              graceTimer = setTimeout(graceDone, this.graceMs);
            }).then(() => {
              if (graceTimer) clearTimeout(graceTimer);
              reject(new ExecutorCancelledError(this.name, 'running', settled));
            });
          };
          outer?.addEventListener('abort', onAbort, { once: true });

          let promise: Promise<T>;
          try {
            promise = task(inner.signal);
          } catch (err) {
            promise = Promise.reject(err);
          }
          promise.then(
            (value) => {
              finish();
              cleanupAbort();
              if (!cancelled) resolve(value);
            },
            (err: unknown) => {
              finish();
              cleanupAbort();
              if (!cancelled) reject(err);
            },
          );
        },
      };

      if (outer) {
        onQueuedAbort = () => {
          const index = this.queue.indexOf(waiter);
          if (index >= 0) {
            this.queue.splice(index, 1);
            reject(new ExecutorCancelledError(this.name, 'queued', true));
            this.notifyIdle();
          }
        };
        outer.addEventListener('abort', onQueuedAbort, { once: true });
      }
      this.queue.push(waiter);
      this.pump();
    });
  }

  stats(): ExecutorStats {
    let retiredRunning = 0;
    for (const g of this.retired) retiredRunning += g.running;
    return {
      name: this.name,
      width: this.width,
      generation: this.current.id,
      running: this.current.running,
      queued: this.queue.length,
      retiredRunning,
      retiredGenerations: this.retired.size,
    };
  }

  /** Stops admission and waits until queued and running work of the current generation is done. */
  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    await new Promise<void>((resolve) => {
      this.idleWaiters.push(resolve);
      this.notifyIdle();
    });
  }

  private retire(generation: Generation): void {
    if (generation !== this.current) return; // already retired by a sibling's cancellation
    if (generation.running > 0) this.retired.add(generation);
    this.current = { id: generation.id + 1, running: 0 };
    this.options.onRetire?.(this.stats());
    this.pump();
  }

  private pump(): void {
    while (this.queue.length > 0 && this.current.running < this.width) {
      const next = this.queue.shift() as Waiter;
      next.start();
    }
  }

  private notifyIdle(): void {
    if (this.queue.length > 0 || this.current.running > 0) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
