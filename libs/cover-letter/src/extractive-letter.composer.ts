import {
  defaultSkillIndex,
  experienceByRecency,
  isOngoing,
  jobTerms,
  profileSkillsInJob,
  rankProfileBullets,
  type Profile,
  type ProfileEducation,
} from '@jobctrl/shared/profile';
import { EXTRACTIVE_LETTER_VERSION, type CoverLetter, type CoverLetterJob } from './cover-letter.types';
import { countWords } from './letter-review.rules';

/**
 * The extractive cover letter: fixed sentence templates filled only with profile facts and the
 * target company and role, so it cannot claim anything the profile does not say. It is what users
 * get without a model, and the fallback when model letters keep failing review. It passes both
 * extractive reviews for any profile with a dated current/most recent role and a few bullets.
 *
 * Template (cover-extractive-v1), each part left out when its facts are missing, never padded:
 *   Dear {company} hiring team,
 *   I am applying for the {job title} position at {company}. {current role: "I currently work as a
 *   {title} at {employer}." | most recent: "Most recently, I worked as a {title} at {employer}."}
 *   {up to two earlier roles: "Before that, I was a {title} at {employer} and a {title} at {employer}."}
 *   {skills: "Of the skills your posting mentions, I bring experience with {≤ 6 profile skills the
 *   posting mentions, vocabulary skills by display name: k8s → Kubernetes}." | else "My core
 *   skills include {first 5 profile skills}."}
 *   {"Three examples from my work that relate to this role:" then, per bullet, "At {employer}:
 *   “{bullet as written}”" ("Also at" when the previous quote was from the same employer) — the
 *   2–3 most job-relevant profile bullets (relevance-v1, rankProfileBullets in @jobctrl/shared/profile)}
 *   {education: "I hold a {degree} in {field} from {school}." (first education entry; "the" before
 *   "University of …")}
 *   I would welcome the chance to discuss how this experience could contribute to the {job title}
 *   role at {company}. Thank you for your time and consideration.
 *   Sincerely, {name}
 *
 * The target length is 150–400 words: with more than MAX_TARGET_WORDS the third quoted bullet and
 * then the earlier-roles sentence are dropped. No stock phrases from CLICHES are used.
 */
export const MAX_QUOTED_BULLETS = 3;
export const MAX_NAMED_SKILLS = 6;
export const MAX_TARGET_WORDS = 400;

export function composeCoverLetterExtractive(profile: Profile, job: CoverLetterJob): CoverLetter {
  const recency = experienceByRecency(profile.experience);
  const terms = jobTerms(job, profile.skills);
  const bullets = rankProfileBullets(profile, job).slice(0, MAX_QUOTED_BULLETS);

  const build = (quoteCount: number, withEarlierRoles: boolean): string => {
    const opening = [`I am applying for the ${job.title.trim()} position at ${job.company.trim()}.`];
    const [latest, ...earlier] = recency.map((i) => profile.experience[i]);
    if (latest) {
      opening.push(
        isOngoing(latest.end)
          ? `I currently work as ${withArticle(latest.title)} at ${latest.employer.trim()}.`
          : `Most recently, I worked as ${withArticle(latest.title)} at ${latest.employer.trim()}.`,
      );
    }
    if (withEarlierRoles && earlier.length > 0) {
      opening.push(`Before that, I was ${joinList(earlier.slice(0, 2).map((e) => `${withArticle(e.title)} at ${e.employer.trim()}`))}.`);
    }
    const matched = profileSkillsInJob(profile.skills, terms).slice(0, MAX_NAMED_SKILLS).map(displaySkill);
    if (matched.length > 0) opening.push(`Of the skills your posting mentions, I bring experience with ${joinList(matched)}.`);
    else if (profile.skills.length > 0) opening.push(`My core skills include ${joinList(profile.skills.slice(0, 5).map((s) => s.trim()))}.`);

    const paragraphs = [`Dear ${job.company.trim()} hiring team,`, opening.join(' ')];
    const quoted = bullets.slice(0, quoteCount);
    if (quoted.length > 0) {
      const intro = `${['One example', 'Two examples', 'Three examples'][quoted.length - 1]} from my work that ${quoted.length === 1 ? 'relates' : 'relate'} to this role:`;
      const quotes = quoted.map((b, i) => {
        const employer = profile.experience[b.experienceIndex].employer.trim();
        const again = i > 0 && quoted[i - 1].experienceIndex === b.experienceIndex;
        return `${again ? 'Also at' : 'At'} ${employer}: “${b.text.trim()}”${/[.!?]$/.test(b.text.trim()) ? '' : '.'}`;
      });
      paragraphs.push([intro, ...quotes].join(' '));
    }
    const education = educationSentence(profile.education[0]);
    const closing = `I would welcome the chance to discuss how this experience could contribute to the ${job.title.trim()} role at ${job.company.trim()}. Thank you for your time and consideration.`;
    paragraphs.push(education ? `${education} ${closing}` : closing);
    const name = profile.contact.name.trim();
    paragraphs.push(name ? `Sincerely,\n${name}` : 'Sincerely,');
    return paragraphs.join('\n\n');
  };

  // Shorten only when over the target: drop the third quote, then the earlier roles.
  let text = build(MAX_QUOTED_BULLETS, true);
  if (countWords(text) > MAX_TARGET_WORDS) text = build(2, true);
  if (countWords(text) > MAX_TARGET_WORDS) text = build(2, false);
  return { text, method: 'extractive', version: EXTRACTIVE_LETTER_VERSION };
}

/** A vocabulary skill by its display name ("k8s" → "Kubernetes"): the same fact, readably spelled. */
function displaySkill(skill: string): string {
  const index = defaultSkillIndex();
  return index.displayOf(index.keyOf(skill)) ?? skill.trim();
}

function educationSentence(entry: ProfileEducation | undefined): string | undefined {
  if (!entry || entry.school.trim() === '') return undefined;
  // "University of X" reads with an article; other names ("Waterloo University", "MIT") without.
  const school = /^university of\b/i.test(entry.school.trim()) ? `the ${entry.school.trim()}` : entry.school.trim();
  const degree = entry.degree?.trim();
  const field = entry.field?.trim();
  if (degree && field) return `I hold ${withArticle(degree)} in ${field} from ${school}.`;
  if (degree) return `I hold ${withArticle(degree)} from ${school}.`;
  if (field) return `I studied ${field} at ${school}.`;
  return `I studied at ${school}.`;
}

/**
 * "a"/"an" by sound: abbreviations ("MSc", "MBA", "SRE") by the name of their first letter (an
 * for A E F H I L M N O R S X), words by their first letter with the common exceptions
 * ("a unit", "a user", "an hour", "an honours degree").
 */
export function withArticle(phrase: string): string {
  const text = phrase.trim();
  const first = text.split(/\s+/)[0] ?? '';
  const abbreviation = /^[A-Z][A-Za-z]*[A-Z]/.test(first) || /^[A-Z]{2,}$/.test(first);
  let an: boolean;
  if (abbreviation) an = 'AEFHILMNORSX'.includes(first[0]);
  else if (/^(uni|use|usu|uti|eu|one\b)/i.test(first)) an = false;
  else if (/^(hour|honest|honou?r|heir)/i.test(first)) an = true;
  else an = /^[aeiou]/i.test(first);
  return `${an ? 'an' : 'a'} ${text}`;
}

function joinList(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
