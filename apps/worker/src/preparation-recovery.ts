import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { JobPipelineInput, PIPELINE_WORKFLOW_TYPE } from '@jobctrl/pipeline/contracts';
import type { PreparationRepository } from '@jobctrl/shared/jobs';
import type { ActivityGauge } from '@jobctrl/shared/temporal';

/** One recovery batch at a time, whichever worker noticed first. */
export const RECOVERY_WORKFLOW_ID = 'preparation-recovery';

export interface PreparationRecoveryOptions {
  client: Client;
  taskQueue: string;
  gauge: ActivityGauge;
  prep: PreparationRepository;
  /** preparation_recovery_idle_minutes and pipeline_internal_concurrency, read live. */
  settings: () => { recoveryIdleMs: number; internalConcurrency: number };
  profileRevision: () => Promise<number>;
  log: (message: string) => void;
}

/**
 * Idle preparation recovery: when this worker has run no remote activity for the idle period, jobs
 * left that long in a pending preparation stage (a crash between stages, a failed start, a profile
 * update whose batch never started) are started again under their own prep ids by one batch.
 */
export class PreparationRecovery {
  private timer: NodeJS.Timeout | undefined;
  private idleSince = Date.now();

  constructor(private readonly o: PreparationRecoveryOptions) {}

  start(checkEveryMs = 30_000): void {
    this.timer = setInterval(() => void this.tick().catch((err: unknown) => this.o.log(`preparation recovery check failed: ${(err as Error).message}`)), checkEveryMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** One check; returns whether a recovery batch was started. */
  async tick(now = Date.now()): Promise<boolean> {
    if (this.o.gauge.snapshot().remoteActive > 0) {
      this.idleSince = now;
      return false;
    }
    const { recoveryIdleMs: idleMs, internalConcurrency } = this.o.settings();
    if (now - this.idleSince < idleMs) return false;
    const revision = await this.o.profileRevision();
    const stuck = await this.o.prep.selectStuck({ revision, idleSinceMs: now - idleMs, limit: 1 });
    if (stuck.length === 0) return false;
    const input: JobPipelineInput = { runId: RECOVERY_WORKFLOW_ID, stages: ['score', 'tailor', 'cover'], scope: 'idle_recovery', internalConcurrency };
    try {
      await this.o.client.workflow.start(PIPELINE_WORKFLOW_TYPE, {
        taskQueue: this.o.taskQueue,
        workflowId: RECOVERY_WORKFLOW_ID,
        args: [input],
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
    this.idleSince = now;
    return true;
  }
}
