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
  /**
   * Whether this worker reaches Temporal right now, and since when (epoch ms). The SQLite heartbeat
   * keeps being written while the server is down, so without this a cut-off worker would read ready.
   * Absent in heartbeats of workers built before it (they are taken as reachable).
   */
  temporal?: WorkerTemporalState;
}

export interface WorkerTemporalState {
  status: 'reachable' | 'unreachable';
  since: number;
  error: string | null;
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
