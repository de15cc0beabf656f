import { BoundedExecutor } from './bounded-executor';

/**
 * The worker's capacity model (spec: "The Worker's Capacity Model"), fixed at worker start-up.
 *
 * | spec                         | here                                                          |
 * |------------------------------|---------------------------------------------------------------|
 * | remote activity slots (N)    | Worker `maxConcurrentActivityTaskExecutions` = worker_activity_slots |
 * | two local control slots      | Worker `maxConcurrentLocalActivityExecutions` = 2, allowlisted names only |
 * | Temporal-sync executor N + 2 | `temporalSync` BoundedExecutor (heartbeat persistence, lifecycle writes) |
 * | blocking-stage executor N + 2| `blockingStage` BoundedExecutor (stage DB/file work) and the CPU thread pool |
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
}

export function workerCapacity(activitySlots: number, localControlSlots = 2): WorkerCapacity {
  if (!Number.isInteger(activitySlots) || activitySlots < 1) {
    throw new RangeError(`worker_activity_slots must be a positive integer, got ${activitySlots}`);
  }
  const executorWidth = activitySlots + 2;
  return {
    remoteActivitySlots: activitySlots,
    localControlSlots,
    executorWidth,
    uvThreadpoolSize: Math.min(1024, 2 * executorWidth + 4),
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
