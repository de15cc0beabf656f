import type { DiscoverWorkflowResult } from './discovery.contract';
import type { PreparationStage } from './preparation.contract';

/**
 * JobPipelineWorkflow: the selected stages in pipeline order. Discover runs as a child workflow
 * (discover-{runId}) so it keeps its own identity, history and retry policy; score/tailor/cover run
 * as a bounded preparation batch of per-job prep-{idempotency_key} workflows.
 */
export const PIPELINE_WORKFLOW_TYPE = 'jobPipelineWorkflow';

export const PIPELINE_STAGES = ['discover', 'score', 'tailor', 'cover', 'apply'] as const;
export type PipelineStage = (typeof PIPELINE_STAGES)[number];

export function pipelineWorkflowId(runId: string): string {
  return `pipeline-${runId}`;
}

/**
 * Which jobs a preparation batch takes:
 * - run: the discovery run's jobs (when the run discovers), otherwise every job pending a selected stage;
 * - profile_update: every job scored against an older profile, plus pending ones;
 * - idle_recovery: jobs left in a pending stage and untouched for a while.
 */
export type PreparationScope = 'run' | 'profile_update' | 'idle_recovery';

/** Which jobs a batch takes (see PreparationScope). */
export interface PreparationSelection {
  scope: PreparationScope;
  stages: PreparationStage[];
  /** Restrict to this discovery run's jobs. */
  discoveryRunId?: string;
  profileRevision?: number;
}

export interface PreparationBatchResult {
  selected: number;
  completed: number;
  failed: number;
  /** Final stage counts of the batch's jobs. */
  stages: Record<string, number>;
}

export interface PreparationTarget {
  jobKey: string;
  idempotencyKey: string;
}

/** A job of the batch in preparation: `starts` counts the executions this batch started for it. */
export interface ActivePreparation extends PreparationTarget {
  starts: number;
}

/** Where a batch stands; carried across continue-as-new so a long batch keeps a bounded history. */
export interface PreparationBatchState {
  /**
   * Targets taken from the frozen selection and not started yet: at most one page (batches started
   * before paging carried their whole selection here).
   */
  queue: PreparationTarget[];
  /** Paged batches: the seq of the last target read from the frozen selection. */
  cursor?: number;
  active: ActivePreparation[];
  result: PreparationBatchResult;
  blocked: boolean;
}

export interface JobPipelineInput {
  runId: string;
  stages: PipelineStage[];
  sourceIds?: string[];
  scope: PreparationScope;
  /** pipeline_internal_concurrency, snapshotted when the run was started: jobs prepared at once. */
  internalConcurrency: number;
  /** profile_update: the profile revision that triggered the batch. */
  profileRevision?: number;
  spendRecheckSeconds?: number;
  /** History length at which a batch continues as new (default 8,000; small values exercise it in tests). */
  batchHistoryLimit?: number;
  /** Targets a batch reads from its frozen selection at a time (default 100; small values exercise paging in tests). */
  batchPageSize?: number;
  /** Least time between two progress writes of a batch while its jobs keep finishing (default 1,000 ms). */
  batchProgressIntervalMs?: number;
  /** Set by continue-as-new: discovery is done and the batch resumes from here. */
  resume?: { batch: PreparationBatchState; discover?: DiscoverWorkflowResult };
}

export interface JobPipelineResult {
  runId: string;
  state: 'completed';
  discover?: DiscoverWorkflowResult;
  preparation?: PreparationBatchResult;
  apply?: PipelineApplyResult;
}

/** The apply stage of a run: the run's approved jobs, each applied by its own ApplyWorkflow child. */
export interface PipelineApplyResult {
  /** Approved jobs of the run (with artifacts still matching their approval and nothing submitted yet). */
  selected: number;
  /** Ending states of the children this run started, e.g. {submitted: 2, needs_user_input: 1}. */
  states: Record<string, number>;
  /** Jobs another apply already ran for (the same single-flight id): this run started nothing for them. */
  alreadyRunning: number;
  /** Jobs skipped because their availability check could not be charged (the hour's budget is spent). */
  budgetSkipped: number;
}

/** Signalled by a preparation a batch started, as it ends: the batch need not poll for it. */
export const PREPARATION_DONE_SIGNAL = 'preparationDone';

export interface PreparationDone {
  idempotencyKey: string;
  /** The job's stage at the end (null when the execution failed). */
  stage: string | null;
  failed: boolean;
}

export interface PreparationPoll extends PreparationTarget {
  /** The execution is closed (completed, failed, cancelled, terminated, timed out). */
  closed: boolean;
  /** Closed other than completed. */
  failed: boolean;
  /** The job's stage now. */
  stage: string;
}

/** What startPreparations started the jobs with. */
export interface StartedPreparations {
  /** The provider captured in each job's start input (the worker's, read live). */
  provider: string;
}

/**
 * The batch's short control activities. The coordinator is the workflow: it waits on timers and
 * signals, so a batch holds no activity slot while its jobs are being prepared.
 */
export interface PreparationBatchActivities {
  /** Unpaged batches (histories from before PREP_BATCH_PAGED_PATCH): the whole selection at once. */
  selectPreparationTargets(input: PreparationSelection): Promise<PreparationTarget[]>;
  /** Freezes the batch's selection once (a retry gets the same one) and returns its size. */
  freezePreparationTargets(input: PreparationSelection & { batchId: string }): Promise<{ selected: number }>;
  /** The next page of the frozen selection after `afterSeq`. */
  readPreparationTargets(input: { batchId: string; afterSeq: number; limit: number }): Promise<Array<PreparationTarget & { seq: number }>>;
  /** Drops a finished batch's frozen selection. */
  releasePreparationTargets(input: { batchId: string }): Promise<void>;
  /**
   * Starts (USE_EXISTING; a new execution once the previous one closed) each job's prep-{key} workflow.
   * Returns the provider it captured in their inputs (histories from before
   * PREP_BATCH_SPEND_FREE_PATCH recorded no result), so the batch knows whether they can spend.
   */
  startPreparations(input: { jobs: PreparationTarget[]; stages: PreparationStage[]; notifyWorkflowId: string; spendRecheckSeconds?: number }): Promise<StartedPreparations | void>;
  pollPreparations(input: { jobs: PreparationTarget[] }): Promise<PreparationPoll[]>;
  recordPreparationProgress(input: { runId: string; selected: number; completed: number; failed: number }): Promise<void>;
  /** Shows (or clears) the run's spend pause; clearing wakes the jobs paused at the ceiling. */
  setRunBlocked(input: { runId: string; blocked: boolean }): Promise<void>;
}
