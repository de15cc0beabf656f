import { CancellationScope, executeChild, isCancellation, proxyActivities } from '@temporalio/workflow';
import type {
  DiscoverWorkflowResult,
  JobPipelineInput,
  JobPipelineResult,
  PipelineActivities,
  PreparationStage,
} from '@jobctrl/pipeline/contracts';
import { DISCOVER_WORKFLOW_TYPE, discoverWorkflowId, PREPARATION_STAGES, retryPolicy } from '@jobctrl/pipeline/contracts';
import { recordLifecycle } from './lifecycle.helpers';

// The batch waits for every job it started; it heartbeats per finished job, so a lost worker's
// batch is retried elsewhere and re-attaches to the same prep-{key} executions (USE_EXISTING).
const batch = proxyActivities<PipelineActivities>({
  startToCloseTimeout: '24 hours',
  heartbeatTimeout: '2 minutes',
  retry: retryPolicy('runPreparationBatch'),
});

/**
 * JobPipelineWorkflow: the selected stages in pipeline order. Discover is a child workflow
 * (discover-{runId}); score/tailor/cover are one bounded preparation batch over the run's jobs (or,
 * without discover, over every job pending a selected stage).
 */
export async function jobPipelineWorkflow(input: JobPipelineInput): Promise<JobPipelineResult> {
  await recordLifecycle('started', { runId: input.runId, stages: input.stages });
  const result: JobPipelineResult = { runId: input.runId, state: 'completed' };
  try {
    if (input.stages.includes('discover')) {
      result.discover = await executeChild<(i: { runId: string; sourceIds?: string[] }) => Promise<DiscoverWorkflowResult>>(DISCOVER_WORKFLOW_TYPE, {
        workflowId: discoverWorkflowId(input.runId),
        args: [{ runId: input.runId, ...(input.sourceIds ? { sourceIds: input.sourceIds } : {}) }],
      });
    }
    const stages = PREPARATION_STAGES.filter((s): s is PreparationStage => (input.stages as string[]).includes(s));
    if (stages.length > 0) {
      result.preparation = await batch.runPreparationBatch({
        runId: input.runId,
        stages,
        scope: input.scope,
        concurrency: input.internalConcurrency,
        ...(input.stages.includes('discover') ? { discoveryRunId: input.runId } : {}),
        ...(input.profileRevision !== undefined ? { profileRevision: input.profileRevision } : {}),
        ...(input.spendRecheckSeconds !== undefined ? { spendRecheckSeconds: input.spendRecheckSeconds } : {}),
      });
    }
    await recordLifecycle('completed', { ...result });
    return result;
  } catch (err) {
    const state = isCancellation(err) ? 'cancelled' : 'failed';
    await CancellationScope.nonCancellable(() => recordLifecycle(state, { runId: input.runId, error: err instanceof Error ? err.message : String(err) }));
    throw err;
  }
}
