// JobPreparationWorkflow as it was before the `prep-extractive-classify-in-activity-v1` marker: an
// extractive score-only job has its compensation classified by a classifyJobCompensation activity of
// its own before its one prepareJobExtractive activity. Used only to record an old history for the
// replay test, and as the reference the one-activity classification must match.
import type { JobPreparationInput, JobPreparationResult } from '@jobctrl/pipeline/contracts';
import { PREP_COMPENSATION_PATCH, PREP_EXTRACTIVE_PATCH, PREP_MODEL_ONE_ACTIVITY_PATCH, PREP_STAGED_PATCH } from '@jobctrl/pipeline/contracts';
import { runPreparation } from '@jobctrl/pipeline/workflows';
import { patched } from '@temporalio/workflow';

export async function jobPreparationWorkflow(input: JobPreparationInput): Promise<JobPreparationResult> {
  return runPreparation(
    input,
    () => patched(PREP_STAGED_PATCH),
    () => patched(PREP_EXTRACTIVE_PATCH),
    () => patched(PREP_COMPENSATION_PATCH),
    () => patched(PREP_MODEL_ONE_ACTIVITY_PATCH),
    () => false,
  );
}
