import { HEARTBEAT_SCHEMA_VERSION, WorkerHeartbeat } from './worker-heartbeat.model';

/**
 * `degraded`: heartbeating, but cut off from Temporal (it polls nothing until the server is back;
 * the SDK worker keeps retrying and resumes by itself).
 */
export type WorkerReadinessStatus = 'ready' | 'degraded' | 'stale' | 'missing';

export interface WorkerReadiness {
  status: WorkerReadinessStatus;
  reason: string;
  /** Fresh, schema-valid workers for this database. */
  freshWorkers: number;
  /** ISO time since when every fresh worker has been unable to reach Temporal; null when one reaches it. */
  temporalUnreachableSince: string | null;
  newest: null | {
    workerId: string;
    taskQueue: string;
    host: string;
    pid: number;
    activitySlots: number;
    executorWidth: number;
    recordedAt: string;
    ageMs: number;
  };
}

export interface ReadinessContext {
  databasePath: string;
  appDir: string;
  now: number;
  staleMs: number;
}

/**
 * The one definition of a live worker: a heartbeat at most `staleMs` (worker_heartbeat_stale_seconds)
 * old. Readiness, the operations snapshot and the spend ledger's settlement of a dead worker's
 * reservations (heartbeatLiveness) all ask this.
 */
export function heartbeatIsFresh(recordedAt: number, now: number, staleMs: number): boolean {
  return now - recordedAt <= staleMs;
}

/** Accepts clocks up to this far ahead (another process's clock, same host): beyond it a row is invalid. */
const FUTURE_SKEW_MS = 5_000;

/**
 * Parses one stored heartbeat row; anything malformed is rejected rather than trusted. A row counts
 * only if every field has its type, the schema version is known and the payload is valid JSON.
 */
export function parseHeartbeatRow(row: Record<string, unknown>): WorkerHeartbeat | null {
  const str = (k: string) => (typeof row[k] === 'string' && (row[k] as string).length > 0 ? (row[k] as string) : null);
  const int = (k: string) => (Number.isInteger(row[k]) ? (row[k] as number) : null);
  const fields = {
    workerId: str('workerId'),
    taskQueue: str('taskQueue'),
    databasePath: str('databasePath'),
    appDir: str('appDir'),
    host: str('host'),
    pid: int('pid'),
    activitySlots: int('activitySlots'),
    localControlSlots: int('localControlSlots'),
    executorWidth: int('executorWidth'),
    schemaVersion: int('schemaVersion'),
    startedAt: int('startedAt'),
    recordedAt: int('recordedAt'),
  };
  if (Object.values(fields).some((v) => v === null)) return null;
  if (fields.schemaVersion !== HEARTBEAT_SCHEMA_VERSION) return null;
  if ((fields.activitySlots as number) < 1 || (fields.executorWidth as number) < 1) return null;
  let payload: unknown;
  try {
    payload = typeof row['payload'] === 'string' ? JSON.parse(row['payload'] as string) : null;
  } catch {
    return null;
  }
  if (!isValidPayload(payload)) return null;
  return { ...(fields as Omit<WorkerHeartbeat, 'payload'>), payload: payload as WorkerHeartbeat['payload'] };
}

/**
 * Worker readiness for this database (spec: "a live PID alone does not establish worker readiness"):
 * ready only with a fresh, schema-valid heartbeat whose database and app-dir identity match ours.
 */
export function classifyWorkerReadiness(rows: Array<Record<string, unknown>>, ctx: ReadinessContext): WorkerReadiness {
  const valid = rows
    .map(parseHeartbeatRow)
    .filter((hb): hb is WorkerHeartbeat => hb !== null)
    .filter((hb) => hb.databasePath === ctx.databasePath && hb.appDir === ctx.appDir)
    .filter((hb) => hb.recordedAt <= ctx.now + FUTURE_SKEW_MS)
    .sort((a, b) => b.recordedAt - a.recordedAt);

  if (valid.length === 0) {
    return {
      status: 'missing',
      reason: `no valid worker heartbeat for database ${ctx.databasePath}; start the worker (npm start, or nx serve worker)`,
      freshWorkers: 0,
      temporalUnreachableSince: null,
      newest: null,
    };
  }
  const fresh = valid.filter((hb) => heartbeatIsFresh(hb.recordedAt, ctx.now, ctx.staleMs));
  const newest = valid[0];
  const ageMs = Math.max(0, ctx.now - newest.recordedAt);
  // One fresh worker that reaches Temporal is enough to run work; when none does, the outage is what
  // health must say (the heartbeats alone would read ready).
  const cutOff = fresh.map((hb) => hb.payload.temporal).filter((t): t is NonNullable<typeof t> => t?.status === 'unreachable');
  const degraded = fresh.length > 0 && cutOff.length === fresh.length;
  const since = degraded ? new Date(Math.min(...cutOff.map((t) => t.since))).toISOString() : null;
  const lastError = cutOff.find((t) => t.error)?.error;
  return {
    status: fresh.length === 0 ? 'stale' : degraded ? 'degraded' : 'ready',
    reason:
      fresh.length === 0
        ? `newest worker heartbeat is ${Math.round(ageMs / 1000)} s old (stale after ${Math.round(ctx.staleMs / 1000)} s)`
        : degraded
          ? `temporal: unreachable since ${since} from ${fresh.length} worker(s)${lastError ? ` (${lastError})` : ''}; they reconnect by themselves when it is back`
          : `${fresh.length} worker(s) heartbeating on task queue ${newest.taskQueue}`,
    freshWorkers: fresh.length,
    temporalUnreachableSince: since,
    newest: {
      workerId: newest.workerId,
      taskQueue: newest.taskQueue,
      host: newest.host,
      pid: newest.pid,
      activitySlots: newest.activitySlots,
      executorWidth: newest.executorWidth,
      recordedAt: new Date(newest.recordedAt).toISOString(),
      ageMs,
    },
  };
}

const COUNTS = ['remoteActive', 'localActive', 'remoteStarted', 'remoteCompleted', 'detailTotal'] as const;

/** The payload fields the operations read model sums; a row whose counts are not counts is not trusted. */
function isValidPayload(payload: unknown): boolean {
  if (!payload || typeof payload !== 'object') return false;
  const activity = (payload as { activity?: Record<string, unknown> }).activity;
  if (!activity || typeof activity !== 'object') return false;
  if (!COUNTS.every((k) => Number.isInteger(activity[k]) && (activity[k] as number) >= 0)) return false;
  if (!Array.isArray(activity['detail'])) return false;
  const throughput = activity['throughput'] as Record<string, unknown> | undefined;
  if (!throughput || !Number.isInteger(throughput['windowSeconds']) || !Number.isInteger(throughput['remoteCompleted'])) return false;
  const temporal = (payload as { temporal?: Record<string, unknown> }).temporal;
  return temporal === undefined || ((temporal['status'] === 'reachable' || temporal['status'] === 'unreachable') && Number.isInteger(temporal['since']));
}
