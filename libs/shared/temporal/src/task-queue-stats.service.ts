import { Injectable } from '@nestjs/common';
import { describeQueueRequest } from './activity-backlog';
import { TemporalClientService } from './temporal-client.service';

/**
 * Approximate Temporal observations of one task queue (spec: "Task-queue statistics are not another
 * capacity total"). An unknown is never reported as 0: when Temporal cannot be asked the values are
 * null and the status says why; a recent earlier answer is kept and marked `stale`.
 */
export type QueueStatsStatus = 'ok' | 'stale' | 'unavailable' | 'unsupported';

export interface QueueStats {
  status: QueueStatsStatus;
  pollers: number | null;
  pollerIdentities: string[];
  backlogCount: number | null;
  backlogAgeSeconds: number | null;
  addRatePerSecond: number | null;
  dispatchRatePerSecond: number | null;
  observedAt: string | null;
  reason?: string;
}

export interface TaskQueueStats {
  taskQueue: string;
  workflow: QueueStats;
  activity: QueueStats;
}

/** An earlier successful observation is shown (as stale) for at most this long after failures start. */
const STALE_LIMIT_MS = 5 * 60_000;
const GRPC_UNIMPLEMENTED = 12;

const unknown = (status: QueueStatsStatus, reason: string): QueueStats => ({
  status,
  pollers: null,
  pollerIdentities: [],
  backlogCount: null,
  backlogAgeSeconds: null,
  addRatePerSecond: null,
  dispatchRatePerSecond: null,
  observedAt: null,
  reason,
});

@Injectable()
export class TaskQueueStatsService {
  private readonly lastGood = new Map<string, { at: number; stats: QueueStats }>();

  constructor(private readonly temporal: TemporalClientService) {}

  async describe(taskQueue: string, timeoutMs = 2_000): Promise<TaskQueueStats> {
    const [workflow, activity] = await Promise.all([
      this.describeOne(taskQueue, 'workflow', timeoutMs),
      this.describeOne(taskQueue, 'activity', timeoutMs),
    ]);
    return { taskQueue, workflow, activity };
  }

  private async describeOne(taskQueue: string, kind: 'workflow' | 'activity', timeoutMs: number): Promise<QueueStats> {
    const key = `${taskQueue}/${kind}`;
    const now = Date.now();
    try {
      const connection = await this.temporal.rawConnection(timeoutMs);
      const res = await connection.withDeadline(now + timeoutMs, () => connection.workflowService.describeTaskQueue(describeQueueRequest(this.temporal.namespace, taskQueue, kind)));
      const stats: QueueStats = {
        status: 'ok',
        pollers: res.pollers?.length ?? 0,
        pollerIdentities: (res.pollers ?? []).map((p) => p.identity ?? '').filter(Boolean).sort(),
        backlogCount: res.stats ? Number(res.stats.approximateBacklogCount ?? 0) : null,
        backlogAgeSeconds: res.stats ? durationSeconds(res.stats.approximateBacklogAge) : null,
        addRatePerSecond: res.stats ? (res.stats.tasksAddRate ?? 0) : null,
        dispatchRatePerSecond: res.stats ? (res.stats.tasksDispatchRate ?? 0) : null,
        observedAt: new Date(now).toISOString(),
        ...(res.stats ? {} : { reason: 'the server returned no statistics for this queue' }),
      };
      if (!res.stats) stats.status = 'unsupported';
      this.lastGood.set(key, { at: now, stats });
      return stats;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if ((err as { code?: number }).code === GRPC_UNIMPLEMENTED) {
        return unknown('unsupported', `this Temporal server does not support task-queue statistics: ${message}`);
      }
      const last = this.lastGood.get(key);
      if (last && now - last.at <= STALE_LIMIT_MS) {
        return { ...last.stats, status: 'stale', reason: `Temporal did not answer (${message}); showing the observation from ${last.stats.observedAt}` };
      }
      return unknown('unavailable', `Temporal did not answer: ${message}`);
    }
  }
}

function durationSeconds(d: { seconds?: unknown; nanos?: number | null } | null | undefined): number | null {
  if (!d) return 0;
  return Number(d.seconds ?? 0) + (d.nanos ?? 0) / 1e9;
}
