import type { ActivityGaugeSnapshot, ExecutorStats } from '@jobctrl/shared/temporal';

export const HEARTBEAT_SCHEMA_VERSION = 1;

export interface WorkerHeartbeatPayload {
  namespace: string;
  temporalAddress: string;
  uvThreadpoolSize: number;
  activity: ActivityGaugeSnapshot;
  executors: { temporalSync: ExecutorStats; blockingStage: ExecutorStats };
  /** How the previous heartbeat write went; a worker whose writes fail turns stale, never crashes. */
  heartbeatWrites: { ok: number; failed: number; skipped: number; lastError: string | null };
}

export interface WorkerHeartbeat {
  workerId: string;
  taskQueue: string;
  databasePath: string;
  appDir: string;
  host: string;
  pid: number;
  activitySlots: number;
  localControlSlots: number;
  executorWidth: number;
  schemaVersion: number;
  startedAt: number;
  recordedAt: number;
  payload: WorkerHeartbeatPayload;
}
