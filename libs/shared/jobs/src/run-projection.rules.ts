/**
 * Folding canonical lifecycle events into the per-run projection. Pure, so replaying the same events
 * (a refresh after a crash) always lands on the same row; terminal states are never undone by a late
 * or repeated `started`.
 */
export type RunStatus = 'running' | 'completed' | 'failed' | 'cancelled';

export interface LifecycleEventRow {
  id: number;
  tenant: string;
  workflowId: string;
  runId: string;
  workflowType: string;
  eventType: string;
  payload: string;
  recordedAt: number;
}

export interface RunProjection {
  workflowId: string;
  runId: string;
  tenant: string;
  workflowType: string;
  status: RunStatus;
  startedAt: number | null;
  finishedAt: number | null;
  outcome: string | null;
  lastEventId: number;
}

const TERMINAL: Record<string, RunStatus> = { completed: 'completed', failed: 'failed', cancelled: 'cancelled' };

export function foldRunProjection(current: RunProjection | null, e: LifecycleEventRow): RunProjection {
  const base: RunProjection = current ?? {
    workflowId: e.workflowId,
    runId: e.runId,
    tenant: e.tenant,
    workflowType: e.workflowType,
    status: 'running',
    startedAt: null,
    finishedAt: null,
    outcome: null,
    lastEventId: 0,
  };
  if (e.id <= base.lastEventId) return base; // already folded
  const next = { ...base, lastEventId: e.id };
  if (e.eventType === 'started') {
    next.startedAt = base.startedAt ?? e.recordedAt;
    return next;
  }
  const terminal = TERMINAL[e.eventType];
  if (!terminal) return next; // an event type this projection does not track
  if (base.status !== 'running') return next; // the first terminal event wins
  return { ...next, status: terminal, finishedAt: e.recordedAt, outcome: e.payload };
}
