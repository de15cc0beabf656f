import type { WorkerHeartbeatStatus, WorkerLiveness } from '@jobctrl/shared/llm';
import type { WorkerHeartbeatRepository } from './worker-heartbeat.repository';
import { heartbeatIsFresh } from './worker-readiness.rules';

/**
 * The spend ledger's view of which workers are alive (see SpendLedgerRepository): the heartbeat
 * table and the same stale window and rule as readiness, so a worker health calls stale is the one
 * whose in-flight model calls are charged as `unknown`.
 */
export function heartbeatLiveness(heartbeats: WorkerHeartbeatRepository, staleMs: number): WorkerLiveness {
  return {
    staleMs,
    async status(workerIds, now) {
      const last = await heartbeats.lastRecordedAt(workerIds);
      const out = new Map<string, WorkerHeartbeatStatus>();
      for (const id of workerIds) {
        const at = last.get(id);
        if (at === undefined) out.set(id, { state: 'absent' });
        else out.set(id, heartbeatIsFresh(at, now, staleMs) ? { state: 'fresh', freshUntil: at + staleMs } : { state: 'stale' });
      }
      return out;
    },
  };
}
