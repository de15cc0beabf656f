export {
  EXTRACTIVE_FORMULA_VERSION,
  EXTRACTIVE_WEIGHTS,
  scoreJobExtractive,
  type ExtractiveScore,
  type ScoringJob,
  type ScoringProfile,
} from './extractive-score.rules';
export { scoringProfileFrom } from './scoring-profile.mapper';
export {
  MAX_DESCRIPTION_CHARS,
  MODEL_FORMULA_VERSION,
  MODEL_SCORE_SCHEMA,
  parseModelScoreAnswer,
  scoreJobWithModel,
  scoringUserPrompt,
  type ModelScore,
  type ModelScoreAnswer,
  type ModelScoringJob,
} from './model-score';
export { createScoringActivities } from './scoring.activities';
export type { ScoringActivityDeps } from './scoring.activities';
