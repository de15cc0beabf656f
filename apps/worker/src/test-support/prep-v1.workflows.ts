// JobPreparationWorkflow as it was before the `prep-extractive-one-activity-v1` marker: stage by
// stage (one activity per step, each behind the spend preflight) whatever the provider. Used only to
// record an old history for the replay test, and as the reference a one-activity preparation must match.
import type { JobPreparationInput, JobPreparationResult } from '@jobctrl/pipeline/contracts';
import { PREP_COMPENSATION_PATCH, PREP_STAGED_PATCH } from '@jobctrl/pipeline/contracts';
import { runPreparation } from '@jobctrl/pipeline/workflows';
import { patched } from '@temporalio/workflow';

export async function jobPreparationWorkflow(input: JobPreparationInput): Promise<JobPreparationResult> {
  return runPreparation(
    input,
    () => patched(PREP_STAGED_PATCH),
    () => false,
    () => patched(PREP_COMPENSATION_PATCH),
    // Nor in one activity with a model provider (prep-model-one-activity-v1 came later still).
    () => false,
  );
}

// The batch that starts the jobs is today's, but with a workflow per job (as before
// prep-batch-inline-extractive-v1), since a stage-by-stage job is what this bundle records.
export { jobPipelineWorkflow } from './batch-v4.workflows';
