/**
 * Review vocabulary for generated artifacts (cover letters, tailored resumes). Every artifact is
 * reviewed by a pair — a factual review (nothing claimed that the profile does not support) and a
 * quality review (tone, length, relevance) — and only the pair's joint outcome decides acceptance.
 */
export type ReviewKind = 'factual' | 'quality';

export const REVIEW_KINDS: readonly ReviewKind[] = ['factual', 'quality'];

/** Why a review could not produce a verdict (model error, timeout, malformed output...). */
export interface ReviewError {
  code: string;
  message: string;
  /** Whether running the same review again may succeed; false for e.g. policy refusals. */
  retryable: boolean;
}

/** A review that completed and judged the artifact. `issues` may be non-empty even when passed (advisories). */
export interface ReviewVerdict {
  kind: ReviewKind;
  passed: boolean;
  issues: string[];
}

/** A review that completed without a verdict. */
export interface ReviewFailure {
  kind: ReviewKind;
  error: ReviewError;
}

export type ReviewResult = ReviewVerdict | ReviewFailure;

/**
 * A completed review plus its completion sequence number. Reviews run in parallel, so the caller
 * (the workflow) stamps each result with the order in which it completed; that order, not array
 * position, decides which failure is reported.
 */
export type ReviewOutcome = ReviewResult & { sequence: number };

export function isReviewFailure(result: ReviewResult): result is ReviewFailure {
  return 'error' in result;
}
