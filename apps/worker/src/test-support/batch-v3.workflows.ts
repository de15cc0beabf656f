// JobPipelineWorkflow as it was before the `prep-batch-spend-free-v1` marker: the batch runs the spend
// preflight in every round, whatever provider its jobs were started with. Used only to record an old
// history for the replay test.
import type { JobPipelineInput, JobPipelineResult } from '@jobctrl/pipeline/contracts';
import { runJobPipeline } from '@jobctrl/pipeline/workflows';

export async function jobPipelineWorkflow(input: JobPipelineInput): Promise<JobPipelineResult> {
  return runJobPipeline(input, undefined, undefined, () => false);
}

// The jobs the batch starts run today's preparation workflow.
export { jobPreparationWorkflow } from '@jobctrl/pipeline/workflows';
