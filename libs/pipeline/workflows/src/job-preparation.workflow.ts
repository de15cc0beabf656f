import { proxyActivities } from '@temporalio/workflow';
import type { JobPreparationInput, JobPreparationResult, ScoringActivities } from '@jobctrl/pipeline/contracts';

const scoring = proxyActivities<ScoringActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 5, initialInterval: '2 seconds' },
});

/**
 * Per-job preparation, started as prep-{idempotency_key} with USE_EXISTING by every path. Score-only
 * (SCORE_JOB) for now; tailoring and the cover letter follow in the preparation stage.
 */
export async function jobPreparationWorkflow(input: JobPreparationInput): Promise<JobPreparationResult> {
  const { score } = await scoring.scoreJob({ jobKey: input.jobKey });
  return { jobKey: input.jobKey, score };
}
