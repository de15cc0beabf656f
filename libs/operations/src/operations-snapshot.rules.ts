import type { ActiveActivityItem } from '@jobctrl/shared/temporal';
import { ACTIVITY_DETAIL_CAP } from '@jobctrl/shared/temporal';
import type { WorkerHeartbeat } from './worker-heartbeat.model';
import { heartbeatIsFresh, parseHeartbeatRow, ReadinessContext } from './worker-readiness.rules';

export interface WorkerCapacityRow {
  workerId: string;
  host: string;
  pid: number;
  configuredSlots: number;
  activeSlots: number;
  localControlActive: number;
  executorWidth: number;
  recordedAt: string;
  ageMs: number;
}

export interface CapacitySnapshot {
  status: 'fresh' | 'stale' | 'missing';
  taskQueue: string | null;
  configuredSlots: number;
  activeSlots: number;
  availableSlots: number;
  localControl: { configured: number; active: number };
  workers: WorkerCapacityRow[];
  /** Oldest first, at most 20, merged across fresh workers. */
  activeItems: Array<ActiveActivityItem & { workerId: string }>;
  /** Exact number of active allowlisted activities across fresh workers. */
  activeItemsTotal: number;
  throughput: { completed: number; windowSeconds: number };
  reason: string;
}

/**
 * The operations read model over heartbeat rows (spec: GET /v1/pipeline/operations): keep rows of this
 * database/app-dir identity, take the task queue named by the newest of them, and sum the fresh,
 * schema-valid rows of that queue. Several workers on one queue add up; stale, foreign or malformed
 * rows never count.
 */
export function aggregateCapacity(rows: Array<Record<string, unknown>>, ctx: ReadinessContext): CapacitySnapshot {
  const mine = rows
    .map(parseHeartbeatRow)
    .filter((hb): hb is WorkerHeartbeat => hb !== null && hb.databasePath === ctx.databasePath && hb.appDir === ctx.appDir)
    .filter((hb) => hb.recordedAt <= ctx.now + 5_000)
    .sort((a, b) => b.recordedAt - a.recordedAt);
  const empty = { configuredSlots: 0, activeSlots: 0, availableSlots: 0, localControl: { configured: 0, active: 0 }, workers: [], activeItems: [], activeItemsTotal: 0, throughput: { completed: 0, windowSeconds: 0 } };
  if (mine.length === 0) {
    return { status: 'missing', taskQueue: null, ...empty, reason: `no valid worker heartbeat for database ${ctx.databasePath}` };
  }
  const taskQueue = mine[0].taskQueue;
  const fresh = mine.filter((hb) => hb.taskQueue === taskQueue && heartbeatIsFresh(hb.recordedAt, ctx.now, ctx.staleMs));
  if (fresh.length === 0) {
    const age = Math.round((ctx.now - mine[0].recordedAt) / 1000);
    return { status: 'stale', taskQueue, ...empty, reason: `newest heartbeat on ${taskQueue} is ${age} s old` };
  }

  const workers = fresh.map((hb) => ({
    workerId: hb.workerId,
    host: hb.host,
    pid: hb.pid,
    configuredSlots: hb.activitySlots,
    activeSlots: hb.payload.activity.remoteActive,
    localControlActive: hb.payload.activity.localActive,
    executorWidth: hb.executorWidth,
    recordedAt: new Date(hb.recordedAt).toISOString(),
    ageMs: Math.max(0, ctx.now - hb.recordedAt),
  }));
  const configuredSlots = sum(fresh.map((hb) => hb.activitySlots));
  const activeSlots = sum(fresh.map((hb) => hb.payload.activity.remoteActive));
  const items = fresh
    .flatMap((hb) => hb.payload.activity.detail.map((item) => ({ ...item, workerId: hb.workerId })))
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  // Windows differ per worker; rates add up, so sum completions and use the shortest window.
  const windowSeconds = Math.min(...fresh.map((hb) => hb.payload.activity.throughput.windowSeconds));
  const completed = sum(fresh.map((hb) => (hb.payload.activity.throughput.remoteCompleted * windowSeconds) / Math.max(1, hb.payload.activity.throughput.windowSeconds)));
  return {
    status: 'fresh',
    taskQueue,
    configuredSlots,
    activeSlots,
    availableSlots: Math.max(0, configuredSlots - activeSlots),
    localControl: { configured: sum(fresh.map((hb) => hb.localControlSlots)), active: sum(fresh.map((hb) => hb.payload.activity.localActive)) },
    workers,
    activeItems: items.slice(0, ACTIVITY_DETAIL_CAP),
    activeItemsTotal: sum(fresh.map((hb) => hb.payload.activity.detailTotal)),
    throughput: { completed: Math.round(completed), windowSeconds },
    reason: `${fresh.length} fresh worker(s) on ${taskQueue}`,
  };
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
