import { experienceByRecency } from './profile-dates.rules';
import type { Profile } from './profile.model';
import { defaultSkillIndex, findMentionedSkills } from './skill.vocabulary';
import { titleCoreWords } from './title.vocabulary';

/**
 * How relevant a piece of the user's own text (a resume bullet) is to a posting. Shared by resume
 * tailoring (ordering bullets) and cover letters (choosing the bullets to quote), so both pick the
 * same evidence for the same posting.
 *
 * Formula (relevance-v1):
 *
 *   J_skills = canonical keys of the skills mentioned in the job's title, description and
 *              requirements (skill vocabulary + the profile's own skills; see skill.vocabulary.ts)
 *   J_title  = stem(core(job.title))            (core: title.vocabulary.ts; stem: below)
 *
 *   relevance(text) = 2 × |skills(text) ∩ J_skills| + |stem(core(text)) ∩ J_title|
 *
 * A shared skill weighs twice a shared title word because skills are what a posting's requirements
 * are made of, while title words ("platform", "engineer") are broader. Counts are of distinct
 * skills/words, so repeating a word does not raise relevance.
 *
 * stem(w) folds plurals so "engineers" meets "engineer": -ies → -y (words over 4 letters), a final
 * -s is dropped unless the word ends in -ss or is 3 letters or shorter. It is applied to both sides.
 */
export const RELEVANCE_VERSION = 'relevance-v1';

export const RELEVANCE_WEIGHTS = { skill: 2, titleWord: 1 } as const;

export interface RelevanceJob {
  title: string;
  description: string;
  requirements?: string[];
}

/** The job's side of the formula, computed once per posting. */
export interface JobTerms {
  /** J_skills: canonical skill keys mentioned anywhere in the posting. */
  skillKeys: ReadonlySet<string>;
  /** J_title: stemmed core words of the job title. */
  titleWords: ReadonlySet<string>;
  /** Canonical keys of the profile's skills, searched for in text besides the vocabulary. */
  profileKeys: readonly string[];
}

export interface Relevance {
  score: number;
  /** Canonical keys of the job skills the text mentions. */
  skills: string[];
  /** Job-title words the text shares. */
  titleWords: string[];
}

export interface RankedBullet {
  experienceIndex: number;
  bulletIndex: number;
  text: string;
  relevance: Relevance;
}

export function jobTerms(job: RelevanceJob, profileSkills: readonly string[]): JobTerms {
  const index = defaultSkillIndex();
  const profileKeys = [...new Set(profileSkills.map((s) => index.keyOf(s)).filter(Boolean))];
  const text = [job.title, job.description, ...(job.requirements ?? [])].join('\n');
  return {
    skillKeys: new Set(findMentionedSkills(text, index, profileKeys)),
    titleWords: new Set([...titleCoreWords(job.title)].map(stemWord)),
    profileKeys,
  };
}

export function relevanceOf(text: string, terms: JobTerms): Relevance {
  const skills = findMentionedSkills(text, defaultSkillIndex(), terms.profileKeys).filter((key) => terms.skillKeys.has(key));
  const titleWords = [...new Set([...titleCoreWords(text)].map(stemWord))].filter((word) => terms.titleWords.has(word));
  return { score: RELEVANCE_WEIGHTS.skill * skills.length + RELEVANCE_WEIGHTS.titleWord * titleWords.length, skills, titleWords };
}

/** The profile's skills (as the user wrote them, profile order, first spelling per skill) that the posting mentions. */
export function profileSkillsInJob(profileSkills: readonly string[], terms: JobTerms): string[] {
  const index = defaultSkillIndex();
  const seen = new Set<string>();
  const result: string[] = [];
  for (const skill of profileSkills) {
    const key = index.keyOf(skill);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    if (terms.skillKeys.has(key)) result.push(skill.trim());
  }
  return result;
}

/**
 * Every bullet of the profile, most relevant first. Ties go to the more recent entry (see
 * experienceByRecency), then to the earlier bullet, so the order is total and deterministic.
 */
export function rankProfileBullets(profile: Profile, job: RelevanceJob): RankedBullet[] {
  const terms = jobTerms(job, profile.skills);
  const recency = experienceByRecency(profile.experience);
  const ranked: Array<RankedBullet & { rank: number }> = [];
  recency.forEach((experienceIndex, rank) => {
    profile.experience[experienceIndex].bullets.forEach((text, bulletIndex) => {
      if (text.trim() === '') return;
      ranked.push({ experienceIndex, bulletIndex, text, relevance: relevanceOf(text, terms), rank });
    });
  });
  return ranked
    .sort((a, b) => b.relevance.score - a.relevance.score || a.rank - b.rank || a.bulletIndex - b.bulletIndex)
    .map(({ rank: _rank, ...bullet }) => bullet);
}

/** Plural folding used on both sides of the title-word comparison (see the header). */
export function stemWord(word: string): string {
  const w = word.toLowerCase();
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}
