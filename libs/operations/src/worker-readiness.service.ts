import { Inject, Injectable } from '@nestjs/common';
import { JOBCTRL_CONFIG, ResolvedConfig } from '@jobctrl/shared/config';
import { WorkerHeartbeatRepository } from './worker-heartbeat.repository';
import { classifyWorkerReadiness, WorkerReadiness } from './worker-readiness.rules';

@Injectable()
export class WorkerReadinessService {
  constructor(
    private readonly heartbeats: WorkerHeartbeatRepository,
    @Inject(JOBCTRL_CONFIG) private readonly config: ResolvedConfig,
  ) {}

  async check(now: number = Date.now()): Promise<WorkerReadiness> {
    try {
      const rows = await this.heartbeats.listForDatabase(this.config.databasePath);
      return classifyWorkerReadiness(rows as unknown as Array<Record<string, unknown>>, {
        databasePath: this.config.databasePath,
        appDir: this.config.appDir,
        now,
        staleMs: this.config.heartbeat.staleMs,
      });
    } catch (err) {
      // An unreadable database cannot prove a healthy worker: report it, never throw from health.
      return {
        status: 'missing',
        reason: `could not read worker heartbeats: ${err instanceof Error ? err.message : String(err)}`,
        freshWorkers: 0,
        temporalUnreachableSince: null,
        newest: null,
      };
    }
  }
}
