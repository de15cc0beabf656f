// JobPipelineWorkflow as it was before the `prep-batch-inline-extractive-v1` marker: a full batch starts a
// prep-{key} workflow per job whatever the provider. Used only to record an old history for the replay test.
import type { JobPipelineInput, JobPipelineResult } from '@jobctrl/pipeline/contracts';
import { runJobPipeline } from '@jobctrl/pipeline/workflows';

export async function jobPipelineWorkflow(input: JobPipelineInput): Promise<JobPipelineResult> {
  return runJobPipeline(input, undefined, undefined, undefined, () => false);
}

// The jobs the batch starts run today's preparation workflow.
export { jobPreparationWorkflow } from '@jobctrl/pipeline/workflows';
