export {
  REVIEW_KINDS,
  isReviewFailure,
  type ReviewError,
  type ReviewFailure,
  type ReviewKind,
  type ReviewOutcome,
  type ReviewResult,
  type ReviewVerdict,
} from './review.types';
export { foldReviewPair, type PairDecision } from './review-pair.rules';
export {
  checkFactualClaims,
  findEmploymentClaims,
  type EmploymentClaim,
  type FactualCheckOptions,
  type FactualCheckResult,
  type FactualProfile,
} from './factual-claims.checker';
export {
  ReviewExecutor,
  ReviewExecutorClosedError,
  type ReviewExecutorOptions,
  type ReviewExecutorShutdownOptions,
  type ReviewExecutorSnapshot,
  type ReviewLeaf,
  type ReviewLeafContext,
  type ReviewPairOutcome,
  type ReviewPairRequest,
  type ReviewPairStopReason,
} from './review.executor';
