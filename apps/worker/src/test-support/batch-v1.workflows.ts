// JobPipelineWorkflow as it was before the `prep-batch-overlapped-progress-v1` marker: the batch
// writes its progress, then starts the next jobs, one after the other. Used only to record an old
// history for the replay test.
import type { JobPipelineInput, JobPipelineResult } from '@jobctrl/pipeline/contracts';
import { runJobPipeline } from '@jobctrl/pipeline/workflows';

export async function jobPipelineWorkflow(input: JobPipelineInput): Promise<JobPipelineResult> {
  return runJobPipeline(input, () => false);
}

// The jobs the batch starts run today's preparation workflow.
export { jobPreparationWorkflow } from '@jobctrl/pipeline/workflows';
