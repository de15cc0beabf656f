import * as os from 'node:os';
import * as path from 'node:path';
import { HEARTBEAT_SCHEMA_VERSION, HeartbeatWriter, WorkerHeartbeatRepository } from '@jobctrl/operations';
import type { WorkerCapacity } from '@jobctrl/shared/temporal';
import type { JobctrlWorker } from './create-worker';
import type { TemporalProbe } from './temporal-probe';

export interface WorkerHeartbeatOptions {
  jw: JobctrlWorker;
  capacity: WorkerCapacity;
  repository: WorkerHeartbeatRepository;
  taskQueue: string;
  namespace: string;
  temporalAddress: string;
  /** The resolved database/app-dir identity the read model filters on. */
  databasePath: string;
  appDir: string;
  intervalMs: number;
  /** Whether the worker reaches Temporal right now (a heartbeat alone would read ready during an outage). */
  temporal: TemporalProbe;
  log?: (message: string) => void;
}

/** The worker's heartbeat: identity, capacity, executor stats and activity telemetry, every interval. */
export function createWorkerHeartbeatWriter(o: WorkerHeartbeatOptions): HeartbeatWriter {
  const startedAt = Date.now();
  // What runs: the compiled tree (tools/build) or sources through ts-node (nx serve, tests).
  const runtime = { buildDir: process.env['JOBCTRL_BUILD_DIR'] ?? null, tsNode: Object.keys(require.cache).some((f) => f.includes(`${path.sep}ts-node${path.sep}`)) };
  const { jw, capacity } = o;
  return new HeartbeatWriter({
    persist: (hb) => o.repository.upsert(hb),
    remove: (id) => o.repository.remove(id),
    executor: jw.executors.temporalSync,
    intervalMs: o.intervalMs,
    log: o.log,
    snapshot: (writes) => ({
      workerId: jw.identity,
      taskQueue: o.taskQueue,
      databasePath: o.databasePath,
      appDir: o.appDir,
      host: os.hostname(),
      pid: process.pid,
      activitySlots: capacity.remoteActivitySlots,
      localControlSlots: capacity.localControlSlots,
      executorWidth: capacity.executorWidth,
      schemaVersion: HEARTBEAT_SCHEMA_VERSION,
      startedAt,
      recordedAt: Date.now(),
      payload: {
        namespace: o.namespace,
        temporalAddress: o.temporalAddress,
        uvThreadpoolSize: Number(process.env['UV_THREADPOOL_SIZE'] ?? 4),
        activity: jw.gauge.snapshot(),
        executors: { temporalSync: jw.executors.temporalSync.stats(), blockingStage: jw.executors.blockingStage.stats() },
        heartbeatWrites: { ok: writes.ok, failed: writes.failed, skipped: writes.skipped, lastError: writes.lastError },
        runtime,
        temporal: o.temporal.state(),
      },
    }),
  });
}
