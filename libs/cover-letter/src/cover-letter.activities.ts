import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { CoverLetterActivities } from '@jobctrl/pipeline/contracts';
import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { PreparationRepository, requireFencedJob, type JobRecord, type JobRepository } from '@jobctrl/shared/jobs';
import { activityCaller, isLlmError, SpendCeilingReachedError, toSpendfulFailure, type LlmClient, type LlmRuntime } from '@jobctrl/shared/llm';
import type { StoredProfile } from '@jobctrl/shared/profile';
import type { CoverLetter, CoverLetterJob } from './cover-letter.types';
import { composeCoverLetterExtractive } from './extractive-letter.composer';
import { factualReviewExtractive, qualityReviewExtractive } from './letter-review.rules';
import { writeCoverLetterWithModel } from './model-letter.writer';
import { factualReviewWithModel, qualityReviewWithModel } from './model-review.reviewer';
import type { PairDecision } from './review-pair.rules';
import type { ReviewExecutor, ReviewLeaf, ReviewLeafContext } from './review.executor';
import type { ReviewKind, ReviewResult } from './review.types';

export interface CoverLetterActivityDeps {
  jobs: JobRepository;
  prep: PreparationRepository;
  profile: () => Promise<StoredProfile>;
  llm: LlmRuntime;
  /** The worker's review executor (running-leaf limit N = worker_activity_slots). */
  reviews: ReviewExecutor;
  /**
   * The runtime database captured for reviews: each review leaf opens (and closes) its own
   * connection through it and checks it is the process database before any model work.
   */
  reviewDatabase: UnitOfWorkFactory;
  /** The database this process's job store uses. */
  processDatabasePath: string;
}

type StoredLetter = CoverLetter & { provider: string; model: string; profileRevision: number; attempt?: number };

/**
 * The cover letter: a draft (extractive template from the profile's facts, or a model letter that
 * takes the previous pair's issues as feedback), then the factual + quality review pair. Only a pair
 * that completed with two passing verdicts accepts the draft.
 */
export function createCoverLetterActivities(deps: CoverLetterActivityDeps): CoverLetterActivities {
  return {
    async writeCoverLetter({ jobKey }) {
      try {
        // The job with its fence (one row, one unit): a late draft must not replace a newer draft or its review.
        const { fence, job } = await requireFencedJob(deps.jobs, jobKey);
        if (job.stage !== 'pending_cover') return { attempt: job.coverAttempts };
        const { profile, revision } = await deps.profile();
        const client = deps.llm.clientFor({ jobKey, ...activityCaller(Context.current()) });
        const feedback = previousIssues(job);
        const letter = client ? (await writeCoverLetterWithModel(client, profile, postingOf(job), feedback)).letter : composeCoverLetterExtractive(profile, postingOf(job));
        const stored: StoredLetter = { ...letter, provider: client?.provider ?? 'extractive', model: client?.model ?? 'extractive', profileRevision: revision };
        return { attempt: await deps.prep.recordCoverDraft(jobKey, stored, fence) };
      } catch (err) {
        throw toSpendfulFailure(err);
      }
    },

    async reviewCoverLetter({ jobKey, finalAttempt }) {
      // The job with its fence (one row, one unit): the decision is recorded only for the draft reviewed here.
      const { fence, job } = await requireFencedJob(deps.jobs, jobKey).catch((err: unknown) => {
        throw toSpendfulFailure(err);
      });
      const letter = job.coverLetter as StoredLetter | null;
      if (job.stage !== 'pending_cover' || !letter) return { accepted: job.stage === 'prepared', outcome: 'skipped', issues: [], stage: job.stage };
      const { profile } = await deps.profile();
      const ctx = Context.current();
      // The coordinator only waits while the reviews run on the executor; the worker's liveness
      // heartbeats (activity interceptor) bring a cancel to it, and through the pair signal to the leaves.
      const pair = await deps.reviews.runPair({
        factual: leaf(deps, jobKey, job.coverAttempts, 'factual', (client, signal) =>
          client ? factualReviewWithModel(client, profile, letter, postingOf(job), { signal, asOf: thisMonth() }).then((r) => r.verdict) : factualReviewExtractive(profile, letter, postingOf(job), { asOf: thisMonth() }),
        ),
        quality: leaf(deps, jobKey, job.coverAttempts, 'quality', (client, signal) =>
          client ? qualityReviewWithModel(client, letter, postingOf(job), { signal }).then((r) => r.verdict) : qualityReviewExtractive(letter, postingOf(job)),
        ),
        signal: ctx.cancellationSignal,
      });
      if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason ?? new Error('cancelled');
      const { decision } = pair;
      const issues = decisionIssues(decision);
      if (decision.outcome === 'errored' || decision.outcome === 'incomplete') {
        // Nothing is decided about the draft: the activity fails (spend ceiling → the workflow's
        // wait; provider trouble → a retry by policy) and the draft stays pending review.
        const error = decision.outcome === 'errored' ? decision.error : { code: 'review_incomplete', message: `missing ${decision.missing.join(', ')} review`, retryable: true };
        throw ApplicationFailure.create({ message: `${error.code}: ${error.message}`, type: error.code, nonRetryable: !error.retryable });
      }
      const stage = (await deps.prep.recordCoverDecision(jobKey, { ...decision, attempt: job.coverAttempts }, finalAttempt, fence)) ?? job.stage;
      return { accepted: decision.accepted, outcome: decision.outcome, issues, stage };
    },
  };
}

/**
 * One review leaf. A leaf that reviews with a model first opens its own connection to the captured
 * runtime database, checks it is the process database and that the draft under review is still
 * current (fails before any model work otherwise), closes it, then reviews — with a model only while
 * the pair may still attempt. An extractive leaf reads nothing from that database and spends nothing,
 * so it has nothing for the guard to protect: its verdict reaches the job only through the
 * coordinator's fenced decision write, which refuses a draft that is no longer current.
 */
function leaf(
  deps: CoverLetterActivityDeps,
  jobKey: string,
  attempt: number,
  kind: ReviewKind,
  review: (client: LlmClient | null, signal: AbortSignal) => ReviewResult | Promise<ReviewResult>,
): ReviewLeaf {
  return async (ctx: ReviewLeafContext) => {
    const client = deps.llm.clientFor({ jobKey });
    const check = client ? await new PreparationRepository(deps.reviewDatabase).staleCoverDraft(jobKey, attempt, deps.processDatabasePath) : null;
    if (check) return { kind, error: { code: 'review_database_mismatch', message: check, retryable: false } };
    if (!ctx.canAttempt()) return { kind, error: { code: 'review_stopped', message: 'the pair was stopped before this review', retryable: true } };
    try {
      return await review(client, ctx.signal);
    } catch (err) {
      if (err instanceof SpendCeilingReachedError) return { kind, error: { code: err.code, message: err.message, retryable: false } };
      if (isLlmError(err)) return { kind, error: { code: err.code, message: err.message, retryable: err.retryable } };
      throw err;
    }
  };
}

function postingOf(job: JobRecord): CoverLetterJob {
  return { title: job.title, company: job.company, description: job.descriptionText ?? '' };
}

function previousIssues(job: JobRecord): string[] | undefined {
  const review = job.coverReview as { issues?: unknown } | null;
  return Array.isArray(review?.issues) && review.issues.length > 0 ? (review.issues as string[]) : undefined;
}

function decisionIssues(decision: PairDecision): string[] {
  if (decision.outcome === 'accepted') return decision.advisories;
  if (decision.outcome === 'rejected') return decision.issues;
  return [];
}

/** "Today" for the years-of-experience check (YYYY-MM), so an ongoing role has an end. */
function thisMonth(): string {
  return new Date().toISOString().slice(0, 7);
}
