import { Worker } from 'node:worker_threads';
import * as path from 'node:path';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { BoundedExecutor, ExecutorStats } from './bounded-executor';

/**
 * CPU-heavy stage work (HTML parsing, scoring over large descriptions) runs on worker threads so it
 * never blocks the worker's event loop, where Temporal's activity heartbeats and task polling live.
 * The pool is bounded like the other stage executors (slots + 2). Unlike an I/O call, a thread can be
 * stopped for real: cancellation terminates the thread and the pool replaces it on demand.
 *
 * Resident threads: each thread is its own V8 isolate with the parser loaded (~10 MB). Only as many
 * threads as the machine has cores can run CPU work at once, so that many are kept (and warmed);
 * the rest of the width is started when more calls overlap (a compiled thread starts in ~50 ms) and
 * retired again after an idle spell, so a burst does not leave the worker holding them for good.
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
  /** Set while a thread beyond the resident ones is idle: its retirement. */
  retire?: NodeJS.Timeout;
}

export interface CpuTaskPoolOptions {
  width: number;
  /** tsconfig used to load .ts task modules in threads (development and tests); omit for built JS. */
  tsProject?: string;
  /**
   * Threads kept for good, and started by warm(): default the machine's cores (at most `width`).
   * Threads beyond it are retired after `idleRetireMs` without a call.
   */
  residentThreads?: number;
  /** How long a thread beyond the resident ones may sit idle before it is stopped (default 60 s). */
  idleRetireMs?: number;
}

const DEFAULT_IDLE_RETIRE_MS = 60_000;

export class CpuTaskPool {
  private readonly executor: BoundedExecutor;
  private readonly idle: PooledThread[] = [];
  private readonly all = new Set<PooledThread>();
  private nextId = 1;
  private retired = 0;
  /** Threads kept for good (and warmed). */
  readonly resident: number;
  private readonly idleRetireMs: number;

  constructor(private readonly options: CpuTaskPoolOptions) {
    // Terminated threads settle their call at once, so the grace wait is short.
    this.executor = new BoundedExecutor('cpu', options.width, { graceMs: 1_000 });
    this.resident = Math.max(1, Math.min(options.width, options.residentThreads ?? os.availableParallelism()));
    this.idleRetireMs = options.idleRetireMs ?? DEFAULT_IDLE_RETIRE_MS;
  }

  run<TIn, TOut>(modulePath: string, exportName: string, input: TIn, opts: { signal?: AbortSignal } = {}): Promise<TOut> {
    return this.executor.run(async (signal) => {
      // The most recently used thread first: the ones left idle longest are those that retire.
      const thread = this.idle.pop() ?? this.spawn(modulePath);
      if (thread.retire) clearTimeout(thread.retire);
      thread.retire = undefined;
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
        if (!signal.aborted) this.release(thread);
      }
    }, opts);
  }

  /**
   * Starts the resident threads and runs one call in each, so the module and everything it imports
   * are loaded before real work arrives: the first jobs then pay no thread start-up (under ts-node
   * that is ~1 s of CPU per thread). Meant for an idle pool at worker start: that many concurrent
   * calls on an empty pool each spawn their own thread.
   */
  async warm<TIn>(modulePath: string, exportName: string, input: TIn): Promise<void> {
    await Promise.all(Array.from({ length: this.resident }, () => this.run(modulePath, exportName, input)));
  }

  stats(): ExecutorStats & { threads: number; residentThreads: number; retiredIdle: number } {
    return { ...this.executor.stats(), threads: this.all.size, residentThreads: this.resident, retiredIdle: this.retired };
  }

  async close(): Promise<void> {
    await this.executor.shutdown();
    for (const t of this.all) if (t.retire) clearTimeout(t.retire);
    await Promise.all([...this.all].map((t) => t.worker.terminate()));
    this.all.clear();
    this.idle.length = 0;
  }

  /** Back to the idle list; a thread beyond the resident ones is stopped if no call takes it in time. */
  private release(thread: PooledThread): void {
    if (!this.all.has(thread)) return;
    this.idle.push(thread);
    if (this.all.size <= this.resident) return;
    thread.retire = setTimeout(() => {
      const i = this.idle.indexOf(thread);
      if (i < 0 || this.all.size <= this.resident) return;
      this.idle.splice(i, 1);
      this.all.delete(thread);
      this.retired += 1;
      void thread.worker.terminate();
    }, this.idleRetireMs);
    // An idle thread's retirement must not keep the process alive.
    thread.retire.unref();
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
      if (thread.retire) clearTimeout(thread.retire);
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
