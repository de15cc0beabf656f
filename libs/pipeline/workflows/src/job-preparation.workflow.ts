import { CancellationScope, getExternalWorkflowHandle, patched, proxyActivities } from '@temporalio/workflow';
import type {
  CoverLetterActivities,
  JobPreparationInput,
  JobPreparationResult,
  PreparationDone,
  PreparationStage,
  ScoringActivities,
  TailoringActivities,
} from '@jobctrl/pipeline/contracts';
import { activityOptions, COVER_LETTER_MAX_ATTEMPTS, PREP_STAGED_PATCH, PREPARATION_DONE_SIGNAL } from '@jobctrl/pipeline/contracts';
import { listenForBudgetChanges, spendful } from './spend.helpers';

// Retry policies from the error taxonomy (docs/retry-policies.md): provider rate limits and outages
// retry with backoff (a Retry-After sets the next delay); auth, bad requests, missing jobs and the
// spend ceiling do not. Each stage has a short heartbeat timeout, so a job held by a worker that died
// is retried within seconds; a live stage heartbeats through its model call (the worker's timer).

const scoring = proxyActivities<ScoringActivities>(activityOptions('scoreJob'));

const tailoring = proxyActivities<TailoringActivities>(activityOptions('tailorResume'));

const writer = proxyActivities<Pick<CoverLetterActivities, 'writeCoverLetter'>>(activityOptions('writeCoverLetter'));

const reviewer = proxyActivities<Pick<CoverLetterActivities, 'reviewCoverLetter'>>(activityOptions('reviewCoverLetter'));

/**
 * Per-job preparation, started as prep-{idempotency_key} with USE_EXISTING by every path. Stage
 * driven: each step reports the stage the job moved to, so a re-run (profile update, recovery)
 * continues from wherever the job stands. Score-only mode is SCORE_JOB; full mode goes on to tailor
 * (at or above tailor_score_threshold) and a cover letter that must pass its review pair, with up
 * to COVER_LETTER_MAX_ATTEMPTS drafts.
 */
export async function jobPreparationWorkflow(input: JobPreparationInput): Promise<JobPreparationResult> {
  return runPreparation(input, () => patched(PREP_STAGED_PATCH));
}

/**
 * The workflow body. `staged` is the patch marker in production; the replay test passes the
 * pre-marker behaviour to record an old (score-only) history.
 */
export async function runPreparation(input: JobPreparationInput, staged: () => boolean): Promise<JobPreparationResult> {
  if (!staged()) {
    // As scheduled before staged preparation: SCORE_JOB alone, no spend preflight.
    const scoredOnly = await scoring.scoreJob({ jobKey: input.jobKey });
    return { jobKey: input.jobKey, stage: scoredOnly.stage ?? 'scored', score: scoredOnly.score };
  }
  try {
    const result = await prepareStages(input);
    await notifyBatch(input, { idempotencyKey: input.idempotencyKey, stage: result.stage, failed: false });
    return result;
  } catch (err) {
    await CancellationScope.nonCancellable(() => notifyBatch(input, { idempotencyKey: input.idempotencyKey, stage: null, failed: true }));
    throw err;
  }
}

/** Tells the batch that started this execution how it ended, so it need not poll for it; best effort. */
async function notifyBatch(input: JobPreparationInput, done: PreparationDone): Promise<void> {
  if (!input.notifyWorkflowId) return;
  await getExternalWorkflowHandle(input.notifyWorkflowId)
    .signal(PREPARATION_DONE_SIGNAL, done)
    .catch(() => undefined);
}

async function prepareStages(input: JobPreparationInput): Promise<JobPreparationResult> {
  const stages: PreparationStage[] = input.stages ?? (input.mode === 'full' ? ['score', 'tailor', 'cover'] : ['score']);
  const recheck = input.spendRecheckSeconds ?? 60;
  const { jobKey } = input;
  listenForBudgetChanges();

  const scored = await spendful(jobKey, recheck, () => scoring.scoreJob({ jobKey, allowScore: stages.includes('score') }));
  let stage = scored.stage;

  if (stage === 'pending_tailor' && stages.includes('tailor')) {
    stage = (await spendful(jobKey, recheck, () => tailoring.tailorResume({ jobKey }))).stage;
  }

  if (stage === 'pending_cover' && stages.includes('cover')) {
    for (let drafts = 0; stage === 'pending_cover' && drafts < COVER_LETTER_MAX_ATTEMPTS; drafts++) {
      const { attempt } = await spendful(jobKey, recheck, () => writer.writeCoverLetter({ jobKey }));
      const finalAttempt = attempt >= COVER_LETTER_MAX_ATTEMPTS || drafts + 1 >= COVER_LETTER_MAX_ATTEMPTS;
      stage = (await spendful(jobKey, recheck, () => reviewer.reviewCoverLetter({ jobKey, finalAttempt }))).stage;
    }
  }

  return { jobKey, stage, score: scored.score };
}
