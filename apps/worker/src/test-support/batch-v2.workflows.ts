// JobPipelineWorkflow as it was before the `prep-batch-throttled-progress-v1` marker: the batch writes
// its progress in every round in which a job finished (beside the next starts). Used only to record an
// old history for the replay test.
import type { JobPipelineInput, JobPipelineResult } from '@jobctrl/pipeline/contracts';
import { runJobPipeline } from '@jobctrl/pipeline/workflows';

export async function jobPipelineWorkflow(input: JobPipelineInput): Promise<JobPipelineResult> {
  return runJobPipeline(input, undefined, () => false);
}

// The jobs the batch starts run today's preparation workflow.
export { jobPreparationWorkflow } from '@jobctrl/pipeline/workflows';
