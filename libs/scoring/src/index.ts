export {
  EXTRACTIVE_FORMULA_VERSION,
  EXTRACTIVE_WEIGHTS,
  scoreJobExtractive,
  type ExtractiveScore,
  type ScoringJob,
  type ScoringProfile,
} from './extractive-score.rules';
export { SKILL_VOCABULARY, buildSkillIndex, normaliseTerm, skillPattern, type SkillEntry, type SkillIndex } from './skill.vocabulary';
export { createScoringActivities } from './scoring.activities';
export type { ScoringActivityDeps } from './scoring.activities';
