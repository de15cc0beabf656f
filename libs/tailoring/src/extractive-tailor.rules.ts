import {
  defaultSkillIndex,
  experienceByRecency,
  jobTerms,
  relevanceOf,
  type Profile,
} from '@jobctrl/shared/profile';
import {
  EXTRACTIVE_TAILOR_VERSION,
  type BulletSource,
  type TailoredExperience,
  type TailoredResume,
  type TailoringJob,
} from './tailored-resume.types';

/**
 * Extractive tailoring: the no-model, no-risk way to fit a resume to a posting. It only SELECTS and
 * REORDERS the profile's own text — every string in the output is a string of the profile — so it
 * cannot introduce a fact, and it is the fallback whenever a model rewrite fails the no-new-facts
 * check.
 *
 * Rules (tailor-extractive-v1):
 *  - summary and education: the profile's, verbatim.
 *  - skills: the profile's skills, one spelling per skill (first one wins, compared by the skill
 *    vocabulary's canonical key), those the posting mentions first; profile order within each group.
 *  - experience: every entry, most recent first (ongoing roles, then by end and start month; see
 *    experienceByRecency in @jobctrl/shared/profile), with its employer/title/dates/location as written.
 *  - bullets: within each entry, ordered by relevance to the posting, highest first, ties keeping the
 *    profile's bullet order (stable); at most MAX_BULLETS_PER_ENTRY kept; blank bullets dropped.
 *
 *    relevance(bullet) = 2 × |job skills the bullet mentions| + |job-title core words the bullet shares|
 *
 *    where job skills are the vocabulary or profile skills mentioned in the posting's title,
 *    description and requirements, and title core words drop seniority/filler words and fold
 *    plurals (relevance-v1, implemented by relevanceOf in @jobctrl/shared/profile and shared with
 *    cover letters). Changing any rule must bump EXTRACTIVE_TAILOR_VERSION.
 */
export const MAX_BULLETS_PER_ENTRY = 5;

export function tailorResumeExtractive(profile: Profile, job: TailoringJob): TailoredResume {
  const terms = jobTerms(job, profile.skills);
  const index = defaultSkillIndex();

  const relevant: string[] = [];
  const rest: string[] = [];
  const seen = new Set<string>();
  for (const skill of profile.skills) {
    const key = index.keyOf(skill);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    (terms.skillKeys.has(key) ? relevant : rest).push(skill);
  }

  const experience: TailoredExperience[] = [];
  const provenance: BulletSource[][] = [];
  for (const experienceIndex of experienceByRecency(profile.experience)) {
    const entry = profile.experience[experienceIndex];
    const chosen = entry.bullets
      .map((text, bulletIndex) => ({ text, bulletIndex, score: relevanceOf(text, terms).score }))
      .filter((b) => b.text.trim() !== '')
      .sort((a, b) => b.score - a.score || a.bulletIndex - b.bulletIndex)
      .slice(0, MAX_BULLETS_PER_ENTRY);
    const tailored: TailoredExperience = { employer: entry.employer, title: entry.title, start: entry.start, bullets: chosen.map((b) => b.text) };
    if (entry.end !== undefined) tailored.end = entry.end;
    if (entry.location !== undefined) tailored.location = entry.location;
    experience.push(tailored);
    provenance.push(chosen.map((b) => ({ experienceIndex, bulletIndex: b.bulletIndex })));
  }

  return {
    summary: profile.summary,
    skills: [...relevant, ...rest],
    experience,
    education: profile.education.map((e) => ({ ...e })),
    provenance,
    method: 'extractive',
    version: EXTRACTIVE_TAILOR_VERSION,
  };
}
