export * from './profile.model';
export {
  SKILL_VOCABULARY,
  buildSkillIndex,
  defaultSkillIndex,
  findMentionedSkills,
  normaliseTerm,
  skillPattern,
  type SkillEntry,
  type SkillIndex,
} from './skill.vocabulary';
export { TITLE_FILLER, TITLE_SYNONYMS, titleCoreWords } from './title.vocabulary';
export { experienceByRecency, experienceSpanMonths, isOngoing, profileMonth } from './profile-dates.rules';
export {
  RELEVANCE_VERSION,
  RELEVANCE_WEIGHTS,
  jobTerms,
  profileSkillsInJob,
  rankProfileBullets,
  relevanceOf,
  stemWord,
  type JobTerms,
  type RankedBullet,
  type RelevanceJob,
  type Relevance,
} from './job-relevance.rules';
export * from './profile.repository';
export { canonicalProfileContent, sameProfileContent } from './profile-content.rules';
export { LEGAL_SUFFIXES, containsRun, nameTokens, nameWords } from './organisation-name.rules';
