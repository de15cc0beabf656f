/**
 * Per-job preparation. Every path that starts it (per-job handoff, fan-out backstops, preparation
 * batches, recovery) uses the deterministic id prep-{idempotency_key} with USE_EXISTING, so all
 * converge on one running execution per job. The exception: a full batch's jobs with the extractive
 * provider are prepared inside the batch's own prepareTargetsExtractive calls (nothing to spend, so
 * no workflow per job); each stage is still a fenced write, so such a job racing a prep-{key}
 * execution of the same job ends in one consistent stage, as a late retry attempt would.
 */
import type { PreparationTarget } from './pipeline.contract';

export const PREPARATION_WORKFLOW_TYPE = 'jobPreparationWorkflow';

export function prepWorkflowId(idempotencyKey: string): string {
  return `prep-${idempotencyKey}`;
}

/**
 * Marks histories of the staged preparation (spend preflight, score → tailor → cover). Histories
 * recorded before it (SCORE_JOB alone) replay on their old path.
 */
export const PREP_STAGED_PATCH = 'prep-staged-preparation-v1';

/**
 * Marks batch histories that freeze their selection in SQLite and page through it (bounded workflow
 * state); older histories replay with the whole selection in workflow state.
 */
export const PREP_BATCH_PAGED_PATCH = 'prep-batch-paged-targets-v1';

/**
 * Marks batch histories that report progress in the same step as the next starts (both activities
 * at once) instead of one after the other; older histories replay with the sequential order.
 */
export const PREP_BATCH_OVERLAP_PATCH = 'prep-batch-overlapped-progress-v1';

/**
 * Marks batch histories that write their progress at most once per progress interval while jobs
 * keep finishing (the last counts always go out); older histories replay with a write per round.
 */
export const PREP_BATCH_THROTTLED_PROGRESS_PATCH = 'prep-batch-throttled-progress-v1';

/**
 * Marks batch histories that skip the spend preflight of a round while the jobs they last started
 * were started with the extractive provider (which cannot spend: spendCeilingReached exempts it) and
 * the run is not shown paused; older histories replay with a preflight in every round.
 */
export const PREP_BATCH_SPEND_FREE_PATCH = 'prep-batch-spend-free-v1';

/**
 * Marks batch histories that prepare a full (score → tailor → cover) batch's jobs inside
 * prepareTargetsExtractive calls, `internalConcurrency` at a time, while this worker's provider is the
 * extractive one, instead of a prep-{key} workflow per job; older histories replay with a workflow
 * per job.
 */
export const PREP_BATCH_INLINE_EXTRACTIVE_PATCH = 'prep-batch-inline-extractive-v1';

/**
 * Marks preparation histories whose job, started with the extractive provider captured in its input,
 * ran every stage in one prepareJobExtractive activity (no spend preflight: nothing can be spent).
 * Histories recorded before it replay stage by stage.
 */
export const PREP_EXTRACTIVE_PATCH = 'prep-extractive-one-activity-v1';

/**
 * Marks preparation histories whose job, with a model provider and more than one stage, ran its
 * stages in one prepareJobStages activity behind one spend preflight (each model call still reserves
 * its worst case before it leaves). Histories recorded before it replay stage by stage.
 */
export const PREP_MODEL_ONE_ACTIVITY_PATCH = 'prep-model-one-activity-v1';

/**
 * Marks preparation histories whose score-only job, started with the extractive provider captured in
 * its input (discovery's per-job handoff), had its compensation classified inside its one
 * prepareJobExtractive activity instead of by a classifyJobCompensation activity before it: one
 * activity and one workflow task less per discovered job. Histories recorded before it replay with
 * the separate classification activity.
 */
export const PREP_EXTRACTIVE_CLASSIFY_PATCH = 'prep-extractive-classify-in-activity-v1';

/** The provider that spends nothing: its preparation is local rules only. */
export const EXTRACTIVE_PROVIDER = 'extractive';

export type PreparationStage = 'score' | 'tailor' | 'cover';
export const PREPARATION_STAGES: readonly PreparationStage[] = ['score', 'tailor', 'cover'];

/** The job stage in which each preparation stage's work waits. */
export const PENDING_STAGE_OF: Readonly<Record<PreparationStage, 'pending_score' | 'pending_tailor' | 'pending_cover'>> = {
  score: 'pending_score',
  tailor: 'pending_tailor',
  cover: 'pending_cover',
};

/** A cover letter gets this many drafts; the last rejected draft leaves the job cover_rejected. */
export const COVER_LETTER_MAX_ATTEMPTS = 2;

/** The failure type (and visible state) of a spendful step stopped by the daily ceiling. */
export const SPEND_CEILING_REACHED = 'spend_ceiling_reached';

/** Signalled to a paused preparation when the budget is available again, so it does not wait out its re-check interval. */
export const SPEND_BUDGET_CHANGED_SIGNAL = 'spendBudgetChanged';

export interface JobPreparationInput {
  jobKey: string;
  idempotencyKey: string;
  /** score: SCORE_JOB only (discovery's fan-outs); full: Score → Tailor → Cover. */
  mode: 'score' | 'full';
  /** The stages to run, in pipeline order (default: by mode). */
  stages?: PreparationStage[];
  /** How often a job paused at the spend ceiling re-checks the budget (default 60 s). */
  spendRecheckSeconds?: number;
  /** A batch coordinator to signal (preparationDone) when this execution closes. */
  notifyWorkflowId?: string;
  /**
   * The worker's model provider when the job was started (captured by the batch's start activity, so
   * every replay decides the same way). 'extractive': the stages run as one activity, with no spend
   * preflight. Absent (other start paths, older inputs): stage by stage.
   */
  provider?: string;
}

export interface JobPreparationResult {
  jobKey: string;
  /** The job's stage when the workflow finished (scored, prepared, cover_rejected, or a pending stage not selected). */
  stage: string;
  score: number | null;
}

export interface ScoringActivities {
  /**
   * Scores the job when it is pending_score or its score predates the current profile revision
   * (`allowScore` false: never scores, only reports the stage). Returns the stage it moved to.
   */
  scoreJob(input: { jobKey: string; allowScore?: boolean }): Promise<{ score: number | null; stage: string; rescored: boolean }>;
}

export interface TailoringActivities {
  tailorResume(input: { jobKey: string }): Promise<{ stage: string; method: string; fallback?: string }>;
}

export interface CoverLetterActivities {
  /** Writes a new draft (with the previous pair's issues as feedback); returns its attempt number. */
  writeCoverLetter(input: { jobKey: string }): Promise<{ attempt: number }>;
  /** Runs the factual + quality review pair on the current draft and records the decision. */
  reviewCoverLetter(input: { jobKey: string; finalAttempt: boolean }): Promise<{ accepted: boolean; outcome: string; issues: string[]; stage: string }>;
}

export interface ExtractivePreparationActivities {
  /**
   * Every selected stage of one job in one activity, for the extractive provider: the same stage
   * activities in the same order (prepareInOrder), each with its own fenced write, so a retry resumes
   * from the stage the job reached. `extractive` false: this worker has a model provider, nothing was
   * done, and the workflow prepares the job stage by stage (with the spend preflight) instead.
   * With `notify`, the activity itself signals the batch (preparationDone) once the job's last stage is
   * written, so the batch starts the next job without waiting for this workflow's next task; `notified`
   * says whether that signal went out (the workflow sends it otherwise).
   */
  prepareJobExtractive(input: {
    jobKey: string;
    stages: PreparationStage[];
    notify?: { workflowId: string; idempotencyKey: string };
    /**
     * Classify the job's compensation first, as classifyJobCompensation would (the job's own refresh
     * id from this idempotency key, every cached determination reused), so the score can weigh pay.
     * A failed classification leaves the pay unknown and never stops the preparation. Not done when
     * this worker has a model provider (`extractive` false): the workflow then classifies itself.
     */
    classifyCompensation?: { idempotencyKey: string };
  }): Promise<{ extractive: boolean; stage: string; score: number | null; notified: boolean }>;

  /**
   * A full batch's jobs prepared inside this one activity, `concurrency` at a time (the batch's
   * internal concurrency: the bound on jobs in preparation, not extra activity slots), each exactly as
   * prepareJobExtractive prepares one job: its stages in order, each a fenced write. It stops taking
   * jobs after `budgetMs` (the rest come back as `unstarted`) so the batch's progress keeps moving.
   * A job whose preparation threw is `deferred`: the batch gives it a prep-{key} workflow of its own,
   * with that activity's retry policy. Progress is heartbeated, so a retry skips the jobs already
   * reported. `extractive` false: this worker (or the live setting) has a model provider and nothing
   * was done.
   */
  prepareTargetsExtractive(input: { jobs: PreparationTarget[]; stages: PreparationStage[]; concurrency: number; budgetMs: number }): Promise<InlinePreparationResult>;
}

/** What one prepareTargetsExtractive call did with the jobs it was given. */
export interface InlinePreparationResult {
  extractive: boolean;
  /** Jobs prepared, with the stage each ended in. */
  done: Array<PreparationTarget & { stage: string }>;
  /** Jobs whose preparation failed here: the batch starts a workflow for each. */
  deferred: PreparationTarget[];
  /** Jobs not begun within the call's budget (or all of them when `extractive` is false). */
  unstarted: PreparationTarget[];
}

export interface StagedPreparationActivities {
  /**
   * Every selected stage of one job in one activity, whatever the provider: the same stage activities
   * in the same order (prepareInOrder), each with its own fenced write and, with a model provider, its
   * own spend admission before each call (the spend gate's reserve-before-call), so the slot is held
   * from the first model call to the last instead of being given back and taken again between stages
   * (a workflow task, a spend preflight and an activity dispatch each). A spend ceiling refusal fails
   * it with spend_ceiling_reached (the workflow pauses, then calls it again: it resumes from the stage
   * the job reached). A retry resumes there too; a draft a lost attempt left unreviewed is reviewed,
   * not rewritten. `notify` as prepareJobExtractive's.
   */
  prepareJobStages(input: {
    jobKey: string;
    stages: PreparationStage[];
    notify?: { workflowId: string; idempotencyKey: string };
  }): Promise<{ stage: string; score: number | null; notified: boolean }>;
}

/** The four stage steps as prepareInOrder calls them (activities, or activities behind the spend preflight). */
export interface PreparationSteps {
  scoreJob(input: { jobKey: string; allowScore?: boolean }): Promise<{ score: number | null; stage: string }>;
  tailorResume(input: { jobKey: string }): Promise<{ stage: string }>;
  writeCoverLetter(input: { jobKey: string }): Promise<{ attempt: number }>;
  reviewCoverLetter(input: { jobKey: string; finalAttempt: boolean }): Promise<{ stage: string }>;
}

/**
 * The stage order of a job's preparation, shared by the workflow (one activity per step) and the
 * extractive activity (all steps in one): score; tailor at pending_tailor; at pending_cover a draft and
 * its review pair, up to COVER_LETTER_MAX_ATTEMPTS drafts. Each step reports the stage the job moved
 * to, so a re-run continues from wherever the job stands. Deterministic (workflow-safe).
 */
export async function prepareInOrder(jobKey: string, stages: readonly PreparationStage[], steps: PreparationSteps): Promise<JobPreparationResult> {
  const scored = await steps.scoreJob({ jobKey, allowScore: stages.includes('score') });
  let stage = scored.stage;

  if (stage === 'pending_tailor' && stages.includes('tailor')) {
    stage = (await steps.tailorResume({ jobKey })).stage;
  }

  if (stage === 'pending_cover' && stages.includes('cover')) {
    for (let drafts = 0; stage === 'pending_cover' && drafts < COVER_LETTER_MAX_ATTEMPTS; drafts++) {
      const { attempt } = await steps.writeCoverLetter({ jobKey });
      const finalAttempt = attempt >= COVER_LETTER_MAX_ATTEMPTS || drafts + 1 >= COVER_LETTER_MAX_ATTEMPTS;
      stage = (await steps.reviewCoverLetter({ jobKey, finalAttempt })).stage;
    }
  }

  return { jobKey, stage, score: scored.score };
}

export interface SpendBudget {
  allowed: boolean;
  spentUsd: number;
  ceilingUsd: number;
  day: string;
  /** Until the day rolls over and the ceiling resets. */
  msUntilReset: number;
}

/**
 * Memo key on a prep-{key} execution: the workflow id whose activity started it (a run's
 * discover-{runId}, pipeline-{runId}, a profile update's batch). Starts from outside a workflow (the
 * API's POST /v1/jobs/:jobKey/prepare, recovery's own client) carry none. USE_EXISTING keeps the first
 * starter's memo, so a coordinator that attached to another's execution does not own it.
 */
export const PREPARATION_OWNER_MEMO = 'startedBy';

/**
 * Marks coordinator histories (discovery, the preparation batch) that cancel the preparations they
 * started when they are cancelled (cancelPreparation, on the local control lane). Older histories
 * replay without it: their cancel reached the coordinator only.
 */
export const RUN_CANCEL_REACHES_PREPARATIONS_PATCH = 'run-cancel-reaches-preparations-v1';

/**
 * Marks batch histories that drop their frozen selection when the batch is cancelled or fails, not only
 * when it finishes; older histories replay without it (their rows were left behind).
 */
export const PREP_BATCH_RELEASE_ON_END_PATCH = 'prep-batch-release-selection-on-end-v1';

/** What cancelPreparation looked at and did. */
export interface PreparationCancellation {
  /** prep-{key} executions described. */
  checked: number;
  /** Running executions this owner started, now cancelled. */
  cancelled: number;
}

/**
 * Owner-scoped preparation cancellation, a local control (spec: "owner-scoped preparation
 * cancellation"): a cancelled coordinator stops the model work it started and nothing else.
 */
export interface PreparationCancellationActivities {
  /**
   * Cancels every running prep-{key} execution one of `owners` started (a run is its pipeline-{runId}
   * and its discover-{runId} child) among the given jobs and, with `discoveryRunId`, among that
   * discovery run's members. Marks every job the run covered and left waiting (those, and a batch's
   * frozen selection) `cancelled`, so idle recovery leaves them alone until a run, a re-prepare or a
   * profile change asks for them. Model activities of the cancelled executions running in this worker
   * process stop at once; elsewhere at their next heartbeat.
   */
  cancelPreparation(input: { owners: string[]; jobs?: PreparationTarget[]; discoveryRunId?: string; batchId?: string }): Promise<PreparationCancellation>;
}

/** checkSpendBudget runs in the local control lane (see local-control.contract.ts). */
export interface SpendActivities {
  checkSpendBudget(input: { lane?: string }): Promise<SpendBudget>;
}

export interface PreparationStatusActivities {
  setPreparationStatus(input: { jobKey: string; status: typeof SPEND_CEILING_REACHED | null }): Promise<void>;
}
