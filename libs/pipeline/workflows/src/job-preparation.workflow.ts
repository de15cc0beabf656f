import { CancellationScope, getExternalWorkflowHandle, isCancellation, patched, proxyActivities } from '@temporalio/workflow';
import type {
  CompensationActivities,
  CoverLetterActivities,
  ExtractivePreparationActivities,
  JobPreparationInput,
  JobPreparationResult,
  PreparationDone,
  PreparationStage,
  ScoringActivities,
  StagedPreparationActivities,
  TailoringActivities,
} from '@jobctrl/pipeline/contracts';
import {
  activityOptions,
  EXTRACTIVE_PROVIDER,
  PREP_COMPENSATION_PATCH,
  PREP_EXTRACTIVE_CLASSIFY_PATCH,
  PREP_EXTRACTIVE_PATCH,
  PREP_MODEL_ONE_ACTIVITY_PATCH,
  PREP_STAGED_PATCH,
  PREPARATION_DONE_SIGNAL,
  prepareInOrder,
} from '@jobctrl/pipeline/contracts';
import { listenForBudgetChanges, spendful } from './spend.helpers';

// Retry policies from the error taxonomy (docs/retry-policies.md): provider rate limits and outages
// retry with backoff (a Retry-After sets the next delay); auth, bad requests, missing jobs and the
// spend ceiling do not. Each stage has a short heartbeat timeout, so a job held by a worker that died
// is retried within seconds; a live stage heartbeats through its model call (the worker's timer).

const scoring = proxyActivities<ScoringActivities>(activityOptions('scoreJob'));

const tailoring = proxyActivities<TailoringActivities>(activityOptions('tailorResume'));

const writer = proxyActivities<Pick<CoverLetterActivities, 'writeCoverLetter'>>(activityOptions('writeCoverLetter'));

const reviewer = proxyActivities<Pick<CoverLetterActivities, 'reviewCoverLetter'>>(activityOptions('reviewCoverLetter'));

const extractive = proxyActivities<ExtractivePreparationActivities>(activityOptions('prepareJobExtractive'));

const wholeJob = proxyActivities<StagedPreparationActivities>(activityOptions('prepareJobStages'));

const compensation = proxyActivities<Pick<CompensationActivities, 'classifyJobCompensation'>>(activityOptions('classifyJobCompensation'));

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
 * The workflow body. `staged` is the patch marker in production; the replay tests pass the
 * pre-marker behaviour to record old histories (`staged` false: score-only; `oneActivity` false:
 * stage by stage whatever the provider; `classifyFirst` false: no compensation before the score;
 * `classifyInActivity` false: an extractive job's classification is an activity of its own).
 */
export async function runPreparation(
  input: JobPreparationInput,
  staged: () => boolean,
  oneActivity: () => boolean = () => patched(PREP_EXTRACTIVE_PATCH),
  classifyFirst: () => boolean = () => patched(PREP_COMPENSATION_PATCH),
  modelOneActivity: () => boolean = () => patched(PREP_MODEL_ONE_ACTIVITY_PATCH),
  classifyInActivity: () => boolean = () => patched(PREP_EXTRACTIVE_CLASSIFY_PATCH),
): Promise<JobPreparationResult> {
  if (!staged()) {
    // As scheduled before staged preparation: SCORE_JOB alone, no spend preflight.
    const scoredOnly = await scoring.scoreJob({ jobKey: input.jobKey });
    return { jobKey: input.jobKey, stage: scoredOnly.stage ?? 'scored', score: scoredOnly.score };
  }
  try {
    // An extractive job (discovery's handoff captures the provider too) has its pay classified inside
    // its one activity below, a workflow task and an activity dispatch sooner than as an activity of
    // its own. Asked in this order on every path, so a replay asks the same markers.
    const inActivity = input.provider === EXTRACTIVE_PROVIDER && classifiesFirst(input) && classifyFirst() && classifyInActivity();
    if (!inActivity) await classifyBeforeScore(input, classifyFirst);
    // Asked only for jobs started with the extractive provider (the input is part of the history, so
    // a replay asks the same question): their stages are local rules that cost nothing, so one
    // activity instead of four activities and four spend preflights, each a round trip to the server.
    // The activity also tells the batch it is done, a workflow task sooner than this workflow could.
    const notify = input.notifyWorkflowId ? { workflowId: input.notifyWorkflowId, idempotencyKey: input.idempotencyKey } : undefined;
    const whole =
      input.provider === EXTRACTIVE_PROVIDER && oneActivity()
        ? await extractive.prepareJobExtractive({
            jobKey: input.jobKey,
            stages: stagesOf(input),
            ...(notify ? { notify } : {}),
            ...(inActivity ? { classifyCompensation: { idempotencyKey: input.idempotencyKey } } : {}),
          })
        : undefined;
    // A worker with a model provider did nothing, not even the classification: it comes first here.
    if (inActivity && !whole?.extractive) await classifyBeforeScore(input, () => true);
    // A worker with a model provider did nothing: the stages behind the spend preflight.
    const done = whole?.extractive ? { jobKey: input.jobKey, stage: whole.stage, score: whole.score, notified: whole.notified } : await prepareSpendful(input, notify, modelOneActivity);
    const result = { jobKey: done.jobKey, stage: done.stage, score: done.score };
    if (!done.notified) await notifyBatch(input, { idempotencyKey: input.idempotencyKey, stage: result.stage, failed: false });
    return result;
  } catch (err) {
    await CancellationScope.nonCancellable(() => notifyBatch(input, { idempotencyKey: input.idempotencyKey, stage: null, failed: true }));
    throw err;
  }
}

/**
 * A job started score-only — discovery's per-job handoff and fan-outs, and score-only batches — has
 * its compensation classified before its score, so the score can weigh pay against the profile's
 * minimum (a job already classified costs one activity that reuses every cached determination).
 * Full batches (profile updates, recovery, Score → Tailor → Cover runs) re-prepare jobs whose pay
 * has not changed and skip it; a refresh (POST /v1/compensation/refresh) covers jobs stored before.
 * A failure leaves the job's pay unknown and never stops its preparation.
 */
async function classifyBeforeScore(input: JobPreparationInput, classifyFirst: () => boolean): Promise<void> {
  if (!classifiesFirst(input) || !classifyFirst()) return;
  try {
    await compensation.classifyJobCompensation({ jobKey: input.jobKey, idempotencyKey: input.idempotencyKey });
  } catch (err) {
    if (isCancellation(err)) throw err;
  }
}

/** A score-only start that includes the score: the preparations whose pay is classified first. */
function classifiesFirst(input: JobPreparationInput): boolean {
  return input.mode === 'score' && stagesOf(input).includes('score');
}

/** Tells the batch that started this execution how it ended, so it need not poll for it; best effort. */
async function notifyBatch(input: JobPreparationInput, done: PreparationDone): Promise<void> {
  if (!input.notifyWorkflowId) return;
  await getExternalWorkflowHandle(input.notifyWorkflowId)
    .signal(PREPARATION_DONE_SIGNAL, done)
    .catch(() => undefined);
}

function stagesOf(input: JobPreparationInput): PreparationStage[] {
  return input.stages ?? (input.mode === 'full' ? ['score', 'tailor', 'cover'] : ['score']);
}

/**
 * A model provider's stages. More than one stage (a full preparation): one prepareJobStages activity
 * behind one spend preflight, so the job's slot goes from one model call to the next without a
 * workflow task, a preflight and an activity dispatch between stages (at 50 ms per model call those
 * took longer than the calls: bench:prepare). The ceiling holds as before: each model call reserves
 * before it leaves, a refusal pauses the job visibly (spendful) and the activity resumes from the
 * stage reached, as a retry does. A single stage
 * (discovery's score-only starts) stays one scoreJob activity, as its histories always were.
 */
async function prepareSpendful(
  input: JobPreparationInput,
  notify: { workflowId: string; idempotencyKey: string } | undefined,
  modelOneActivity: () => boolean,
): Promise<JobPreparationResult & { notified: boolean }> {
  const stages = stagesOf(input);
  if (stages.length > 1 && modelOneActivity()) {
    listenForBudgetChanges();
    const r = await spendful(input.jobKey, input.spendRecheckSeconds ?? 60, () => wholeJob.prepareJobStages({ jobKey: input.jobKey, stages, ...(notify ? { notify } : {}) }));
    return { jobKey: input.jobKey, stage: r.stage, score: r.score, notified: r.notified };
  }
  return { ...(await prepareStages(input)), notified: false };
}

/** One activity per stage step, each behind the spend preflight. */
async function prepareStages(input: JobPreparationInput): Promise<JobPreparationResult> {
  const recheck = input.spendRecheckSeconds ?? 60;
  const { jobKey } = input;
  listenForBudgetChanges();
  return prepareInOrder(jobKey, stagesOf(input), {
    scoreJob: (i) => spendful(jobKey, recheck, () => scoring.scoreJob(i)),
    tailorResume: (i) => spendful(jobKey, recheck, () => tailoring.tailorResume(i)),
    writeCoverLetter: (i) => spendful(jobKey, recheck, () => writer.writeCoverLetter(i)),
    reviewCoverLetter: (i) => spendful(jobKey, recheck, () => reviewer.reviewCoverLetter(i)),
  });
}
