import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { JobPipelineInput, PIPELINE_WORKFLOW_TYPE } from '@jobctrl/pipeline/contracts';
import { type DetailCaptureDeps, EnrichmentRetryPass } from '@jobctrl/enrichment';
import type { PreparationRepository } from '@jobctrl/shared/jobs';
import type { ActivityGauge } from '@jobctrl/shared/temporal';
import { startPreparationWith } from './preparation-starter';

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
  /** The worker's own detail capture (job store, host policy, CPU pool, browser) for the enrichment retry pass. */
  enrichment?: DetailCaptureDeps;
  log: (message: string) => void;
}

/**
 * Idle preparation recovery: when this worker has run no remote activity for the idle period, jobs
 * left that long in a pending preparation stage (a crash between stages, a failed start, a profile
 * update whose batch never started) are started again under their own prep ids by one batch.
 * Every tick, idle or not, first runs the enrichment retry pass (policy in @jobctrl/enrichment): due
 * retries of jobs whose run has ended are captured, and each job that moves on is handed to its
 * prep-{idempotency_key} through this worker's client.
 */
export class PreparationRecovery {
  private timer: NodeJS.Timeout | undefined;
  private idleSince = Date.now();
  private readonly stopping = new AbortController();
  private readonly enrichmentRetry: EnrichmentRetryPass | undefined;

  constructor(private readonly o: PreparationRecoveryOptions) {
    this.enrichmentRetry = o.enrichment
      ? new EnrichmentRetryPass({
          ...o.enrichment,
          width: () => o.settings().internalConcurrency,
          startPreparation: (job) => startPreparationWith(o.client, o.taskQueue, job),
          log: o.log,
        })
      : undefined;
  }

  start(checkEveryMs = 30_000): void {
    this.timer = setInterval(() => void this.tick().catch((err: unknown) => this.o.log(`preparation recovery check failed: ${(err as Error).message}`)), checkEveryMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.stopping.abort();
  }

  /** One check; returns whether a recovery batch was started. */
  async tick(now = Date.now()): Promise<boolean> {
    await this.retryEnrichment(now);
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

  private async retryEnrichment(now: number): Promise<void> {
    if (!this.enrichmentRetry) return;
    try {
      await this.enrichmentRetry.run({ now, signal: this.stopping.signal });
    } catch (err) {
      // A failed pass leaves its claims to expire; the next tick retries them.
      if (!this.stopping.signal.aborted) this.o.log(`enrichment retry pass failed: ${(err as Error).message}`);
    }
  }
}
