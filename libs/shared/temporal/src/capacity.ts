import * as os from 'node:os';
import { BoundedExecutor } from './bounded-executor';

/**
 * The worker's capacity model (spec: "The Worker's Capacity Model"), fixed at worker start-up.
 *
 * | spec                         | here                                                          |
 * |------------------------------|---------------------------------------------------------------|
 * | remote activity slots (N)    | Worker `maxConcurrentActivityTaskExecutions` = worker_activity_slots |
 * | two local control slots      | Worker `maxConcurrentLocalActivityExecutions` = 2, allowlisted names only |
 * | Temporal-sync executor N + 2 | `temporalSync` BoundedExecutor (heartbeat persistence, lifecycle writes) |
 * | blocking-stage executor N + 2| `blockingStage` BoundedExecutor (stage DB/file work)            |
 * |                              | CPU thread pool (parsing): min(N + 2, max(2, cores)) threads — see cpuThreads |
 * | executor threads             | libuv thread pool: UV_THREADPOOL_SIZE = 2 × (N + 2) + 4, set before first use |
 *
 * The libuv pool must hold both executors at full width plus headroom for fs/dns so that Temporal-side
 * writes never wait for a libuv thread behind stage work; it can only be sized before the process first
 * uses it, which is why the worker computes it from config.json at the top of main.
 */
export interface WorkerCapacity {
  remoteActivitySlots: number;
  localControlSlots: number;
  executorWidth: number;
  uvThreadpoolSize: number;
  /**
   * Threads of the CPU pool. CPU-bound calls beyond the cores only time-slice: each such thread is
   * another V8 isolate (~10 MB with the parser) and another start-up, and the calls finish later on
   * average than queued in order. At least two, so one slow hostile page cannot hold every parse
   * even on a single core; never wider than the blocking-stage executor it serves.
   */
  cpuThreads: number;
}

export function workerCapacity(activitySlots: number, localControlSlots = 2, cores = os.availableParallelism()): WorkerCapacity {
  if (!Number.isInteger(activitySlots) || activitySlots < 1) {
    throw new RangeError(`worker_activity_slots must be a positive integer, got ${activitySlots}`);
  }
  const executorWidth = activitySlots + 2;
  return {
    remoteActivitySlots: activitySlots,
    localControlSlots,
    executorWidth,
    uvThreadpoolSize: Math.min(1024, 2 * executorWidth + 4),
    cpuThreads: Math.min(executorWidth, Math.max(2, cores)),
  };
}

export interface WorkerExecutors {
  temporalSync: BoundedExecutor;
  blockingStage: BoundedExecutor;
}

export function createWorkerExecutors(capacity: WorkerCapacity, opts: { graceMs?: number } = {}): WorkerExecutors {
  return {
    temporalSync: new BoundedExecutor('temporal-sync', capacity.executorWidth, opts),
    blockingStage: new BoundedExecutor('blocking-stage', capacity.executorWidth, opts),
  };
}
