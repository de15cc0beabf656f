/**
 * Per-job preparation. Every path that starts it (per-job handoff, fan-out backstops, recovery)
 * uses the deterministic id prep-{idempotency_key} with USE_EXISTING, so all converge on exactly one
 * execution per job.
 */
export const PREPARATION_WORKFLOW_TYPE = 'jobPreparationWorkflow';

export function prepWorkflowId(idempotencyKey: string): string {
  return `prep-${idempotencyKey}`;
}

export interface JobPreparationInput {
  jobKey: string;
  idempotencyKey: string;
  /** score: SCORE_JOB only (until tailoring and cover letters land). */
  mode: 'score';
}

export interface JobPreparationResult {
  jobKey: string;
  score: number;
}

export interface ScoringActivities {
  scoreJob(input: { jobKey: string }): Promise<{ score: number }>;
}
