import {
  REVIEW_KINDS,
  isReviewFailure,
  type ReviewError,
  type ReviewKind,
  type ReviewOutcome,
  type ReviewVerdict,
} from './review.types';

/**
 * Folds the outcomes of an artifact's review pair into one decision.
 *
 * Rules:
 *  1. The artifact is accepted only when BOTH the factual and the quality review completed with a
 *     passing verdict.
 *  2. A missing review (cancelled, timed out before reporting, never scheduled — passed as
 *     `undefined` or simply absent) never accepts: no partial pair can accept an artifact, however
 *     convincing the half that did run.
 *  3. When any review failed — a negative verdict or an error — the FIRST failure by completion
 *     sequence is authoritative for the reported reason. Later failures are listed but do not
 *     change the reason, so the decision does not depend on how long the slower review took to
 *     finish failing, and a retry of the stage reports the same cause for the same history.
 *  4. Only when nothing failed but a review is missing is the decision "incomplete".
 *
 * The fold is total and deterministic for well-formed input; duplicated kinds or sequence numbers
 * are programming errors in the caller and throw, rather than being silently resolved one way.
 */
export type PairDecision =
  | { accepted: true; outcome: 'accepted'; verdicts: Record<ReviewKind, ReviewVerdict>; advisories: string[] }
  | {
      accepted: false;
      outcome: 'rejected';
      /** The review whose negative verdict completed first. */
      by: ReviewKind;
      issues: string[];
      /** Other failed reviews, in completion order. */
      alsoFailed: ReviewKind[];
      missing: ReviewKind[];
    }
  | {
      accepted: false;
      outcome: 'errored';
      /** The review whose error completed first. */
      by: ReviewKind;
      error: ReviewError;
      alsoFailed: ReviewKind[];
      missing: ReviewKind[];
    }
  | { accepted: false; outcome: 'incomplete'; missing: ReviewKind[] };

/** See PairDecision for the rules. `results` may hold `undefined` for reviews that never reported. */
export function foldReviewPair(results: ReadonlyArray<ReviewOutcome | undefined>): PairDecision {
  const present = results.filter((r): r is ReviewOutcome => r !== undefined);
  validate(present);

  const byKind = new Map(present.map((r) => [r.kind, r] as const));
  const missing = REVIEW_KINDS.filter((kind) => !byKind.has(kind));
  const failures = present
    .filter((r) => isReviewFailure(r) || !r.passed)
    .sort((a, b) => a.sequence - b.sequence);

  if (failures.length > 0) {
    const [first, ...rest] = failures;
    const alsoFailed = rest.map((r) => r.kind);
    if (isReviewFailure(first)) {
      return { accepted: false, outcome: 'errored', by: first.kind, error: { ...first.error }, alsoFailed, missing };
    }
    return { accepted: false, outcome: 'rejected', by: first.kind, issues: [...first.issues], alsoFailed, missing };
  }

  if (missing.length > 0) return { accepted: false, outcome: 'incomplete', missing };

  // Both kinds are present and no failure exists, so both are passing verdicts.
  const verdict = (kind: ReviewKind): ReviewVerdict => {
    const r = byKind.get(kind) as ReviewOutcome & ReviewVerdict;
    return { kind: r.kind, passed: r.passed, issues: [...r.issues] };
  };
  const verdicts = { factual: verdict('factual'), quality: verdict('quality') };
  return { accepted: true, outcome: 'accepted', verdicts, advisories: [...verdicts.factual.issues, ...verdicts.quality.issues] };
}

function validate(present: ReviewOutcome[]): void {
  const kinds = new Set<string>();
  const sequences = new Set<number>();
  for (const r of present) {
    if (!REVIEW_KINDS.includes(r.kind)) throw new Error(`foldReviewPair: unknown review kind "${String(r.kind)}"`);
    if (kinds.has(r.kind)) throw new Error(`foldReviewPair: more than one ${r.kind} review result`);
    if (!Number.isFinite(r.sequence)) throw new Error(`foldReviewPair: ${r.kind} review has no finite completion sequence`);
    if (sequences.has(r.sequence)) throw new Error(`foldReviewPair: completion sequence ${r.sequence} is used twice`);
    if (!isReviewFailure(r) && typeof r.passed !== 'boolean') {
      // A verdict without a boolean `passed` is malformed model output; it must never read as a pass.
      throw new Error(`foldReviewPair: ${r.kind} verdict has no boolean "passed"`);
    }
    kinds.add(r.kind);
    sequences.add(r.sequence);
  }
}
