import type { DiscoverWorkflowResult } from './discovery.contract';
import type { PreparationStage } from './preparation.contract';

/**
 * JobPipelineWorkflow: the selected stages in pipeline order. Discover runs as a child workflow
 * (discover-{runId}) so it keeps its own identity, history and retry policy; score/tailor/cover run
 * as a bounded preparation batch of per-job prep-{idempotency_key} workflows.
 */
export const PIPELINE_WORKFLOW_TYPE = 'jobPipelineWorkflow';

export const PIPELINE_STAGES = ['discover', 'score', 'tailor', 'cover'] as const;
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
}

export interface PreparationBatchInput {
  runId: string;
  stages: PreparationStage[];
  scope: PreparationScope;
  concurrency: number;
  /** Restrict to this discovery run's jobs. */
  discoveryRunId?: string;
  profileRevision?: number;
  spendRecheckSeconds?: number;
}

export interface PreparationBatchResult {
  selected: number;
  completed: number;
  failed: number;
  /** Final stage counts of the batch's jobs. */
  stages: Record<string, number>;
}

export interface JobPipelineResult {
  runId: string;
  state: 'completed';
  discover?: DiscoverWorkflowResult;
  preparation?: PreparationBatchResult;
}

export interface PipelineActivities {
  /** Starts (USE_EXISTING) and awaits the batch's preparation workflows, `concurrency` at a time; heartbeats progress. */
  runPreparationBatch(input: PreparationBatchInput): Promise<PreparationBatchResult>;
}
