import { CancellationScope, ContinueAsNew, executeChild, isCancellation } from '@temporalio/workflow';
import type { DiscoverWorkflowInput, DiscoverWorkflowResult, JobPipelineInput, JobPipelineResult, PreparationStage } from '@jobctrl/pipeline/contracts';
import { DISCOVER_WORKFLOW_TYPE, discoverWorkflowId, PREPARATION_STAGES } from '@jobctrl/pipeline/contracts';
import { describeFailure, recordLifecycle } from './lifecycle.helpers';
import { runPreparationBatch } from './preparation-batch';
import { runApplyStage } from './pipeline-apply';

/**
 * JobPipelineWorkflow: the selected stages in pipeline order. Discover is a child workflow
 * (discover-{runId}); score/tailor/cover are one bounded preparation batch over the run's jobs (or,
 * without discover, over every job pending a selected stage); apply starts one ApplyWorkflow child
 * per approved job.
 */
export async function jobPipelineWorkflow(input: JobPipelineInput): Promise<JobPipelineResult> {
  return runJobPipeline(input);
}

/**
 * The workflow body. `overlappedProgress`, `throttledProgress`, `spendFreeAware` and `inlineExtractive` are the
 * batch's patch markers in production; the replay tests pass the pre-marker behaviour to record old histories.
 */
export async function runJobPipeline(
  input: JobPipelineInput,
  overlappedProgress?: () => boolean,
  throttledProgress?: () => boolean,
  spendFreeAware?: () => boolean,
  inlineExtractive?: () => boolean,
): Promise<JobPipelineResult> {
  // A continued execution is the same run: its lifecycle was started by the first one.
  if (!input.resume) await recordLifecycle('started', { runId: input.runId, stages: input.stages });
  const result: JobPipelineResult = { runId: input.runId, state: 'completed', ...(input.resume?.discover ? { discover: input.resume.discover } : {}) };
  try {
    if (input.stages.includes('discover') && !input.resume) {
      // The run's one snapshot of pipeline_internal_concurrency also sizes its discovery.
      result.discover = await executeChild<(i: DiscoverWorkflowInput) => Promise<DiscoverWorkflowResult>>(DISCOVER_WORKFLOW_TYPE, {
        workflowId: discoverWorkflowId(input.runId),
        args: [{ runId: input.runId, internalConcurrency: input.internalConcurrency, ...(input.sourceIds ? { sourceIds: input.sourceIds } : {}) }],
      });
    }
    const stages = PREPARATION_STAGES.filter((s): s is PreparationStage => (input.stages as string[]).includes(s));
    if (stages.length > 0) {
      result.preparation = await runPreparationBatch(input, stages, result.discover, overlappedProgress, throttledProgress, spendFreeAware, inlineExtractive);
    }
    // Apply is a run stage of its own (it never starts unless asked for): the approved jobs of the run.
    if ((input.stages as string[]).includes('apply')) {
      result.apply = await runApplyStage({ ...(result.discover ? { discoveryRunId: input.runId } : {}), width: input.internalConcurrency });
    }
    await recordLifecycle('completed', { ...result });
    return result;
  } catch (err) {
    // Continue-as-new leaves through this throw: the next execution is the same run, still going.
    if (err instanceof ContinueAsNew) throw err;
    const state = isCancellation(err) ? 'cancelled' : 'failed';
    await CancellationScope.nonCancellable(() => recordLifecycle(state, { runId: input.runId, error: describeFailure(err) }));
    throw err;
  }
}
