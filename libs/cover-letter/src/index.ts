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
export {
  EXTRACTIVE_LETTER_VERSION,
  MODEL_LETTER_VERSION,
  letterText,
  type CoverLetter,
  type CoverLetterJob,
  type CoverLetterMethod,
  type LetterInput,
} from './cover-letter.types';
export { MAX_NAMED_SKILLS, MAX_QUOTED_BULLETS, MAX_TARGET_WORDS, composeCoverLetterExtractive, withArticle } from './extractive-letter.composer';
export {
  CLICHES,
  MAX_WORDS,
  MIN_WORDS,
  countWords,
  factualReviewExtractive,
  findCliches,
  findPlaceholders,
  qualityReviewExtractive,
  yearsClaims,
  type FactualReviewOptions,
} from './letter-review.rules';
export { COVER_LETTER_SCHEMA, coverLetterUserPrompt, parseCoverLetterAnswer, writeCoverLetterWithModel } from './model-letter.writer';
export {
  REVIEW_VERDICT_SCHEMA,
  factualReviewWithModel,
  parseReviewAnswer,
  qualityReviewWithModel,
  type ModelReviewOptions,
} from './model-review.reviewer';
export { createCoverLetterActivities, type CoverLetterActivityDeps } from './cover-letter.activities';
