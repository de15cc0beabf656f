import { ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { ApplicationRepository, type ApplicationRecord } from '@jobctrl/apply-launcher/application';
import { APPLY_TENANT, prepWorkflowId, type ApplicationState } from '@jobctrl/pipeline/contracts';
import { SettingsService } from '@jobctrl/shared/config';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { JobRepository, PreparationRepository, type JobRecord } from '@jobctrl/shared/jobs';
import { TemporalClientService } from '@jobctrl/shared/temporal';
import { workflowRunning } from '../workflow-running';
import { startPreparationWith } from './preparation-start';

/** What the API allows on a job right now; the UI enables a button only when its action is true. */
export interface JobActions {
  /** POST /v1/jobs/:jobKey/prepare would start a preparation (the job is enriched and none is running). */
  prepare: boolean;
  /** Why prepare is off, as the POST would answer it (its 409 code and message); null when it is on or unknown (Temporal unreachable). */
  prepareRefusal: { code: PrepareRefusal; message: string } | null;
}

/** How long the job detail waits for Temporal to say whether a preparation runs. */
const ACTIONS_DEADLINE_MS = 2_000;

/** Why a re-prepare is refused (409 `code`). */
export type PrepareRefusal = 'preparation_running' | 'not_enriched' | 'application_in_progress' | 'application_submitted';

/**
 * Application states that freeze a job's artifacts: an attempt is using them now, or they were (or
 * may have been) sent to the employer — re-preparing would overwrite the record of what was sent.
 */
const FROZEN_BY_APPLICATION: Partial<Record<ApplicationState, PrepareRefusal>> = {
  running: 'application_in_progress',
  submitted: 'application_submitted',
  needs_verification: 'application_submitted',
};

const FROZEN_MESSAGE: Record<string, string> = {
  application_in_progress: 'an application of this job is running with its current resume and letter',
  application_submitted: 'this job was (or may have been) submitted with its current resume and letter; they stay as sent',
};

/**
 * POST /v1/jobs/:jobKey/prepare: one job's Score → Tailor → Cover (letter and its review pair)
 * again, as its own prep-{idempotency_key} workflow, the same execution every other path starts
 * (discovery's handoff, batches, recovery): its activities take the worker's activity slots like
 * any preparation, and each spendful step passes the spend preflight, so at the daily ceiling the
 * job waits in prepStatus spend_ceiling_reached and goes on when the ceiling is raised or the day
 * rolls over. One job is at most one of pipeline_internal_concurrency's places, so no batch is
 * needed to bound it.
 *
 * A preparation of the job that is already running is refused (409 preparation_running), not
 * joined: that execution may be a score-only handoff or a batch's run that would not redo the
 * stages the job already passed, so answering with its id would claim a re-prepare that does not
 * happen.
 */
@Injectable()
export class JobPreparationService {
  private readonly jobs: JobRepository;
  private readonly prep: PreparationRepository;
  private readonly applications: ApplicationRepository;

  constructor(
    uow: UnitOfWorkFactory,
    @Inject(TemporalClientService) private readonly temporal: TemporalClientService,
    @Inject(SettingsService) private readonly settings: SettingsService,
  ) {
    this.jobs = new JobRepository(uow);
    this.prep = new PreparationRepository(uow);
    this.applications = new ApplicationRepository(uow);
  }

  /**
   * The refusals that need no Temporal: the job's stage and its application. One rule for POST and for
   * actions. `read`: the job's application as the caller already read it (null: none); undefined reads it.
   */
  private async storedRefusal(job: Pick<JobRecord, 'stage' | 'jobKey'>, read?: ApplicationRecord | null): Promise<{ code: PrepareRefusal; message: string } | null> {
    if (job.stage === 'pending_enrichment') return { code: 'not_enriched', message: `job ${job.jobKey} is still waiting for its detail page; it is prepared once enriched` };
    const application = read !== undefined ? read : await this.applications.applicationOf(APPLY_TENANT, job.jobKey);
    const code = application ? FROZEN_BY_APPLICATION[application.state] : undefined;
    return code ? { code, message: `job ${job.jobKey}: ${FROZEN_MESSAGE[code]} (application ${application?.state})` } : null;
  }

  async prepare(jobKey: string): Promise<{ workflowId: string }> {
    const job = await this.jobs.get(jobKey);
    if (!job) throw new NotFoundException(`no job ${jobKey}`);
    const workflowId = prepWorkflowId(job.idempotencyKey);
    const stored = await this.storedRefusal(job);
    if (stored) throw refusal(stored.code, stored.message, workflowId);
    const client = await this.temporal.client();
    if (await workflowRunning(client, workflowId)) throw refusal('preparation_running', `a preparation of job ${jobKey} is running (${workflowId}); ask again once it ended`, workflowId);
    // Back to pending_score first, so the execution started next scores, tailors and writes again
    // (a job left there by a failed start is picked up by the idle preparation recovery).
    const write = await this.prep.requeueForScoring(jobKey);
    if (!write.applied) throw write.stage === null ? new NotFoundException(`no job ${jobKey}`) : refusal('not_enriched', `job ${jobKey} is still waiting for its detail page`, workflowId);
    // Full mode, a new execution once the last one closed (USE_EXISTING: one that started meanwhile is the same one).
    // The configured provider goes in its input, as a batch's start captures it: an extractive job
    // then runs its stages in prepareJobExtractive, with no spend preflight, instead of the model
    // path's prepareJobStages behind one (a worker whose provider differs ignores it and takes the
    // model path).
    const provider = (this.settings.get()['llm'] as { provider?: string } | undefined)?.provider;
    await startPreparationWith(client, this.temporal.taskQueue, job, 'full', { provider });
    return { workflowId };
  }

  /**
   * The actions of a job as GET /v1/jobs/:jobKey shows them. Temporal unreachable allows none, and
   * the question is bounded (ACTIONS_DEADLINE_MS) so a Temporal outage does not hold up the detail.
   * `application`: the job's application (null: none) when the caller has just read it for its own
   * view, so the detail reads it once; left out, it is read here.
   */
  async actionsOf(job: Pick<JobRecord, 'stage' | 'idempotencyKey' | 'jobKey'>, application?: ApplicationRecord | null): Promise<JobActions> {
    const stored = await this.storedRefusal(job, application);
    if (stored) return { prepare: false, prepareRefusal: stored };
    const deadline = Date.now() + ACTIONS_DEADLINE_MS;
    const probe = (async (): Promise<'free' | 'running' | 'unknown'> => {
      const client = await this.temporal.client();
      return (await client.withDeadline(deadline, () => workflowRunning(client, prepWorkflowId(job.idempotencyKey)))) ? 'running' : 'free';
    })().catch(() => 'unknown' as const);
    // Connecting has a longer timeout of its own (a shared connection, left to finish for later calls).
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'unknown'>((resolve) => (timer = setTimeout(() => resolve('unknown'), ACTIONS_DEADLINE_MS)));
    try {
      const answer = await Promise.race([probe, late]);
      if (answer === 'free') return { prepare: true, prepareRefusal: null };
      // Unknown (Temporal unreachable or slow) allows nothing but claims no reason either.
      return { prepare: false, prepareRefusal: answer === 'running' ? { code: 'preparation_running', message: `a preparation of job ${job.jobKey} is running; ask again once it ended` } : null };
    } finally {
      clearTimeout(timer);
    }
  }
}

function refusal(code: PrepareRefusal, message: string, workflowId: string): ConflictException {
  return new ConflictException({ statusCode: 409, error: 'Conflict', code, message, workflowId });
}
