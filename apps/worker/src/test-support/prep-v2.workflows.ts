// jobPreparationWorkflow as it was before the `prep-compensation-before-score-v1` marker: a
// discovered job is scored without its compensation classified first. Used only to record an old
// history for the replay test; the discover run that starts it is today's.
import type { JobPreparationInput, JobPreparationResult } from '@jobctrl/pipeline/contracts';
import { PREP_EXTRACTIVE_PATCH, PREP_STAGED_PATCH } from '@jobctrl/pipeline/contracts';
import { runPreparation } from '@jobctrl/pipeline/workflows';
import { patched } from '@temporalio/workflow';

export async function jobPreparationWorkflow(input: JobPreparationInput): Promise<JobPreparationResult> {
  return runPreparation(input, () => patched(PREP_STAGED_PATCH), () => patched(PREP_EXTRACTIVE_PATCH), () => false);
}

export { discoverWorkflow } from '@jobctrl/pipeline/workflows';
