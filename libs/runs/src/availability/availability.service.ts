import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { ScheduleNotFoundError } from '@temporalio/client';
import { availabilitySweepScheduleId, POSTING_CHECK_WORKFLOW_TYPE, postingCheckWorkflowId, type PostingCheckInput } from '@jobctrl/pipeline/contracts';
import { PostingCheckRepository } from '@jobctrl/posting-checks';
import { tooManyRequests } from '@jobctrl/shared/api-errors';
import { LiveSettingsReader } from '@jobctrl/shared/config';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { JobRepository } from '@jobctrl/shared/jobs';
import { TemporalClientService } from '@jobctrl/shared/temporal';
import { workflowRunning } from '../workflow-running';

/** GET /v1/availability */
export interface AvailabilityStatusView {
  sweeps: { enabled: boolean; lastSweepAt: string | null; nextSweepAt: string | null };
  budget: {
    hourLimit: number;
    sweepShare: number;
    foregroundShare: number;
    usedSweep: number;
    usedForeground: number;
    /** When the oldest acquisition in the hour leaves the window (capacity starts to return); null when none was charged. */
    windowResetsAt: string | null;
  };
}

/**
 * POST /v1/jobs/:jobKey/availability-check and GET /v1/availability. A foreground check is charged
 * to the budget here, before its workflow starts, so a spent foreground share is a 429 the caller
 * sees, not a check that silently does nothing.
 */
@Injectable()
export class AvailabilityService {
  private readonly checks: PostingCheckRepository;
  private readonly jobs: JobRepository;

  constructor(
    uow: UnitOfWorkFactory,
    @Inject(TemporalClientService) private readonly temporal: TemporalClientService,
    private readonly live: LiveSettingsReader,
  ) {
    this.checks = new PostingCheckRepository(uow);
    this.jobs = new JobRepository(uow);
  }

  async check(jobKey: string): Promise<{ workflowId: string }> {
    if (!(await this.jobs.get(jobKey))) throw new NotFoundException(`no job ${jobKey}`);
    const workflowId = postingCheckWorkflowId(jobKey);
    const client = await this.temporal.client();
    // A check of this job is already running: the caller gets that one, and nothing is charged twice.
    if (await workflowRunning(client, workflowId)) return { workflowId };
    const charge = await this.checks.chargeForeground();
    if (!charge.acquired) {
      throw tooManyRequests('the hour\'s posting-check budget is spent (100 acquisitions an hour; sweeps use at most 80)', (charge.retryAfterMs ?? 60_000) / 1000);
    }
    const input: PostingCheckInput = { jobKey };
    // USE_EXISTING: a check started between the look above and this start is the same check.
    await client.workflow.start(POSTING_CHECK_WORKFLOW_TYPE, { taskQueue: this.temporal.taskQueue, workflowId, args: [input], workflowIdConflictPolicy: 'USE_EXISTING' });
    return { workflowId };
  }

  async status(now = Date.now()): Promise<AvailabilityStatusView> {
    const { budget, state } = await this.checks.budget(now);
    const enabled = this.live.settings().availability_sweeps_enabled;
    const oldest = state.charges[0];
    return {
      sweeps: { enabled, lastSweepAt: iso(state.lastSweepAt), nextSweepAt: enabled ? await this.nextSweepAt() : null },
      budget: {
        hourLimit: budget.limits.acquisitionsPerWindow,
        sweepShare: budget.limits.sweepShare,
        foregroundShare: budget.limits.acquisitionsPerWindow - budget.limits.sweepShare,
        usedSweep: state.charges.filter((c) => c.kind === 'sweep').length,
        usedForeground: state.charges.filter((c) => c.kind === 'foreground').length,
        windowResetsAt: oldest ? iso(oldest.at + budget.limits.windowMs) : null,
      },
    };
  }

  /** The schedule's next run, from Temporal; null while no worker has created the schedule yet. */
  private async nextSweepAt(): Promise<string | null> {
    try {
      const description = await (await this.temporal.client()).schedule.getHandle(availabilitySweepScheduleId(this.temporal.taskQueue)).describe();
      if (description.state.paused) return null;
      const next = description.info.nextActionTimes[0];
      return next ? next.toISOString() : null;
    } catch (err) {
      if (err instanceof ScheduleNotFoundError) return null;
      throw err;
    }
  }
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
