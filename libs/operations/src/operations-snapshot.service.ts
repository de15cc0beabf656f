import { Inject, Injectable } from '@nestjs/common';
import { JOBCTRL_CONFIG, ResolvedConfig } from '@jobctrl/shared/config';
import { TaskQueueStats, TaskQueueStatsService } from '@jobctrl/shared/temporal';
import { estimateEta, Eta } from './eta.rules';
import { aggregateCapacity, CapacitySnapshot } from './operations-snapshot.rules';
import { RemainingWorkRegistry } from './remaining-work.registry';
import { WorkerHeartbeatRepository } from './worker-heartbeat.repository';

export interface OperationsSnapshot {
  generatedAt: string;
  databasePath: string;
  appDir: string;
  capacity: Omit<CapacitySnapshot, 'activeItems' | 'activeItemsTotal' | 'throughput'>;
  activeItems: CapacitySnapshot['activeItems'];
  activeItemsTotal: number;
  taskQueueStats: TaskQueueStats | null;
  remainingWork: { total: number | null; byStage: Record<string, number> };
  throughput: CapacitySnapshot['throughput'];
  eta: Eta;
}

@Injectable()
export class OperationsSnapshotService {
  constructor(
    @Inject(JOBCTRL_CONFIG) private readonly config: ResolvedConfig,
    private readonly heartbeats: WorkerHeartbeatRepository,
    private readonly queueStats: TaskQueueStatsService,
    private readonly remaining: RemainingWorkRegistry,
  ) {}

  async snapshot(now: number = Date.now()): Promise<OperationsSnapshot> {
    // The database path is the identity: heartbeats are filtered to it and to the app dir resolved
    // from the same config, so a worker of another instance never counts here.
    const rows = await this.heartbeats.listForDatabase(this.config.databasePath);
    const capacity = aggregateCapacity(rows as unknown as Array<Record<string, unknown>>, {
      databasePath: this.config.databasePath,
      appDir: this.config.appDir,
      now,
      staleMs: this.config.heartbeat.staleMs,
    });
    const [taskQueueStats, remainingWork] = await Promise.all([
      this.queueStats.describe(capacity.taskQueue ?? this.config.temporal.taskQueue),
      this.remaining.remaining(),
    ]);
    const { activeItems, activeItemsTotal, throughput, ...capacityTotals } = capacity;
    return {
      generatedAt: new Date(now).toISOString(),
      databasePath: this.config.databasePath,
      appDir: this.config.appDir,
      capacity: capacityTotals,
      activeItems,
      activeItemsTotal,
      taskQueueStats,
      remainingWork,
      throughput,
      eta: estimateEta({
        capacityStatus: capacity.status,
        completed: throughput.completed,
        windowSeconds: throughput.windowSeconds,
        remainingWork: remainingWork.total,
        activityQueue: taskQueueStats.activity,
        workerIdentities: capacity.workers.map((w) => w.workerId),
      }),
    };
  }
}
