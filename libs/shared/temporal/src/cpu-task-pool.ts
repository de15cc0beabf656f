import { Worker } from 'node:worker_threads';
import * as path from 'node:path';
import * as fs from 'node:fs';
import { BoundedExecutor, ExecutorStats } from './bounded-executor';

/**
 * CPU-heavy stage work (HTML parsing, scoring over large descriptions) runs on worker threads so it
 * never blocks the worker's event loop, where Temporal's activity heartbeats and task polling live.
 * The worker sizes it by its capacity model (`WorkerCapacity.cpuThreads`: no wider than the
 * blocking-stage executor, no wider than the cores can run). Unlike an I/O call, a thread can be
 * stopped for real: cancellation terminates the thread and the pool replaces it on demand.
 */
export class CpuTaskError extends Error {
  constructor(message: string, readonly remoteName: string, readonly remoteStack?: string) {
    super(message);
    this.name = 'CpuTaskError';
  }
}

interface PendingCall {
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

interface PooledThread {
  worker: Worker;
  pending: Map<number, PendingCall>;
}

export interface CpuTaskPoolOptions {
  width: number;
  /** tsconfig used to load .ts task modules in threads (development and tests); omit for built JS. */
  tsProject?: string;
}

export class CpuTaskPool {
  private readonly executor: BoundedExecutor;
  private readonly idle: PooledThread[] = [];
  private readonly all = new Set<PooledThread>();
  private nextId = 1;

  constructor(private readonly options: CpuTaskPoolOptions) {
    // Terminated threads settle their call at once, so the grace wait is short.
    this.executor = new BoundedExecutor('cpu', options.width, { graceMs: 1_000 });
  }

  run<TIn, TOut>(modulePath: string, exportName: string, input: TIn, opts: { signal?: AbortSignal } = {}): Promise<TOut> {
    return this.executor.run(async (signal) => {
      const thread = this.idle.pop() ?? this.spawn(modulePath);
      const id = this.nextId++;
      const result = new Promise<TOut>((resolve, reject) => {
        thread.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      });
      const onAbort = () => {
        // A CPU loop cannot observe a signal; stopping the thread is the only real cancellation.
        void thread.worker.terminate();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      thread.worker.postMessage({ id, modulePath, exportName, input });
      try {
        return await result;
      } finally {
        signal.removeEventListener('abort', onAbort);
        // A call that threw in the thread leaves a healthy thread: it goes back like any other
        // (kept out, each failing call would strand a live isolate). A cancelled call's thread is
        // being terminated, and its exit takes it out of the pool.
        if (!signal.aborted && this.all.has(thread)) this.idle.push(thread);
      }
    }, opts);
  }

  /**
   * Starts every thread the pool may use (its width) and runs one call in each, so the module and
   * everything it imports are loaded before real work arrives: the first job then pays no thread
   * start-up (under ts-node that is ~1 s of CPU per thread). Meant for an idle pool at worker start:
   * `width` concurrent calls on an empty pool each spawn their own thread.
   */
  async warm<TIn>(modulePath: string, exportName: string, input: TIn): Promise<void> {
    await Promise.all(Array.from({ length: this.options.width }, () => this.run(modulePath, exportName, input)));
  }

  stats(): ExecutorStats & { threads: number } {
    return { ...this.executor.stats(), threads: this.all.size };
  }

  async close(): Promise<void> {
    await this.executor.shutdown();
    await Promise.all([...this.all].map((t) => t.worker.terminate()));
    this.all.clear();
    this.idle.length = 0;
  }

  private spawn(modulePath: string): PooledThread {
    const tsProject = this.options.tsProject ?? (modulePath.endsWith('.ts') ? findTsProject(modulePath) : undefined);
    const worker = new Worker(path.join(__dirname, 'cpu-thread.runner.js'), { workerData: { tsProject } });
    const thread: PooledThread = { worker, pending: new Map() };
    this.all.add(thread);
    worker.on('message', (msg: { id: number; ok: boolean; value?: unknown; error?: { name: string; message: string; stack?: string } }) => {
      const call = thread.pending.get(msg.id);
      if (!call) return;
      thread.pending.delete(msg.id);
      if (msg.ok) call.resolve(msg.value);
      else call.reject(new CpuTaskError(msg.error?.message ?? 'cpu task failed', msg.error?.name ?? 'Error', msg.error?.stack));
    });
    const fail = (err: Error) => {
      this.all.delete(thread);
      const i = this.idle.indexOf(thread);
      if (i >= 0) this.idle.splice(i, 1);
      for (const call of thread.pending.values()) call.reject(err);
      thread.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new CpuTaskError(`cpu thread exited with code ${code}`, 'ThreadExit')));
    return thread;
  }
}

function findTsProject(from: string): string | undefined {
  let dir = path.dirname(from);
  for (;;) {
    const candidate = path.join(dir, 'tsconfig.base.json');
    if (fs.existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
