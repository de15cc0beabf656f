// JobPreparationWorkflow as it was before the `prep-staged-preparation-v1` marker: SCORE_JOB alone,
// no spend preflight. Used only to record an old history for the replay test.
import type { JobPreparationInput, JobPreparationResult } from '@jobctrl/pipeline/contracts';
import { runPreparation } from '@jobctrl/pipeline/workflows';

export async function jobPreparationWorkflow(input: JobPreparationInput): Promise<JobPreparationResult> {
  return runPreparation(input, () => false);
}
