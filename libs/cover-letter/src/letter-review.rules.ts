import {
  containsRun,
  experienceSpanMonths,
  isOngoing,
  nameTokens,
  nameWords,
  profileMonth,
  stemWord,
  titleCoreWords,
  type Profile,
} from '@jobctrl/shared/profile';
import { looksLikeBoardToken } from '@jobctrl/shared/jobs';
import { letterText, type LetterInput } from './cover-letter.types';
import { checkFactualClaims } from './factual-claims.checker';
import type { ReviewVerdict } from './review.types';

/**
 * The extractive halves of a cover letter's review pair. They need no model, so they run on every
 * letter (extractive or model-written), and the model factual review is AND-ed with the factual one
 * here: a model can never pass a letter these rules reject.
 *
 * Factual review (kind 'factual'):
 *  - employment claims ("I worked at X", "I led … at X", "I was a … at X", "joined X"; see
 *    factual-claims.checker.ts) must name a profile employer or school (or a profile skill/title,
 *    which the checker tolerates), or the target company; each other organisation is an issue
 *    "unsupported employer: X";
 *  - claimed years ("5 years", "10+ years", "over seven years", "a decade") must not exceed the
 *    profile's career span (earliest start to latest end, see experienceSpanMonths): a claim of N
 *    years passes when 12·N ≤ span months + 6 (resume dates are month-granular, and "8 years" for
 *    7 years 8 months is ordinary usage). Ongoing roles end at `options.asOf`; without it the span
 *    of a profile with an ongoing role is unbounded and only profiles without dated experience fail
 *    a years claim. Nothing here reads the clock.
 *  - verbatim quotes of the profile's own bullets and summary are the user's words and are not
 *    re-checked (they may name partners or durations the user wrote).
 *
 * Quality review (kind 'quality'):
 *  - the company is the employer's name, not a job board's lower-case token ("acme", see
 *    looksLikeBoardToken): a letter can only address a token wrongly ("Dear acme hiring team"), so
 *    it fails whatever the text says; the fix is the source's `company_name` (see boardTokenIssue);
 *  - names the company (its name without legal suffixes, case-insensitive) and the role (every core
 *    word of the job title, see titleCoreWords; plurals folded);
 *  - between MIN_WORDS (120) and MAX_WORDS (450) words;
 *  - no template placeholders: "[Company]", "{name}", "{{role}}", "<role>", "XXX";
 *  - clichés from CLICHES: one is an advisory (passed, with the issue listed), two or more fail.
 */
export const MIN_WORDS = 120;
export const MAX_WORDS = 450;

/** Stock phrases that make a letter read as generic; each entry is the label and the patterns that find it. */
export const CLICHES: ReadonlyArray<{ phrase: string; pattern: RegExp }> = [
  { phrase: 'I am writing to express my interest', pattern: /\bI am writing to express my (?:strong |keen )?interest\b/i },
  { phrase: 'to whom it may concern', pattern: /\bto whom it may concern\b/i },
  { phrase: 'team player', pattern: /\bteam[- ]players?\b/i },
  { phrase: 'hard-working', pattern: /\bhard[- ]?working\b/i },
  { phrase: 'think outside the box', pattern: /\bthink(?:ing|s)? outside (?:of )?the box\b/i },
  { phrase: 'passionate about', pattern: /\bpassionate about\b/i },
  { phrase: 'go-getter', pattern: /\bgo[- ]getters?\b/i },
  { phrase: 'synergy', pattern: /\bsynerg(?:y|ies|istic)\b/i },
  { phrase: 'results-driven', pattern: /\bresults?[- ]driven\b/i },
  { phrase: 'detail-oriented', pattern: /\bdetail[- ]oriented\b/i },
  { phrase: 'self-starter', pattern: /\bself[- ]starters?\b/i },
  { phrase: 'proven track record', pattern: /\bproven track record\b/i },
  { phrase: 'fast-paced environment', pattern: /\bfast[- ]paced environments?\b/i },
  { phrase: 'wear many hats', pattern: /\bwear(?:ing)? many hats\b/i },
  { phrase: 'perfect fit', pattern: /\bperfect fit\b/i },
  { phrase: 'dynamic team', pattern: /\bdynamic team\b/i },
];

const PLACEHOLDER_PATTERNS: readonly RegExp[] = [/\{\{[^{}\n]{1,40}\}\}/g, /\[[^[\]\n]{1,40}\]/g, /\{[^{}\n]{1,40}\}/g, /<[^<>\n@/]{1,40}>/g, /\bX{3,}\b/g];

export interface FactualReviewOptions {
  /** `YYYY-MM` (or `YYYY`) "today", to bound the span of an ongoing role; see the header. */
  asOf?: string;
}

export function factualReviewExtractive(profile: Profile, letter: LetterInput, job: { company: string }, options: FactualReviewOptions = {}): ReviewVerdict {
  const text = withoutProfileQuotes(letterText(letter), profile);
  const issues: string[] = [];

  const claims = checkFactualClaims(
    text,
    {
      employers: profile.experience.map((e) => e.employer),
      schools: profile.education.map((e) => e.school),
      skills: profile.skills,
      titles: [...profile.experience.map((e) => e.title), ...profile.preferences.titles],
    },
    { targetCompany: job.company },
  );
  for (const organisation of claims.unsupported) issues.push(`unsupported employer: ${organisation}`);

  const hasDatedExperience = profile.experience.some((e) => profileMonth(e.start, 'start') !== undefined);
  const unbounded = options.asOf === undefined && profile.experience.some((e) => isOngoing(e.end));
  const span = experienceSpanMonths(profile.experience, options.asOf);
  for (const claim of yearsClaims(text)) {
    if (!hasDatedExperience) {
      issues.push(`unsupported years of experience: "${claim.text}" (the profile has no dated experience)`);
    } else if (!unbounded && span !== undefined && claim.years * 12 > span + 6) {
      issues.push(`unsupported years of experience: "${claim.text}" (the profile spans ${Math.round(span / 12)} years)`);
    }
  }
  return { kind: 'factual', passed: issues.length === 0, issues };
}

export function qualityReviewExtractive(letter: LetterInput, job: { title: string; company: string }): ReviewVerdict {
  const text = letterText(letter);
  const issues: string[] = [];

  const token = boardTokenIssue(job.company);
  if (token) issues.push(token);
  if (!namesCompany(text, job.company)) issues.push(`missing company: ${job.company}`);
  const missingRole = missingRoleWords(text, job.title);
  if (missingRole.length > 0) issues.push(`missing role: ${job.title} (not found: ${missingRole.join(', ')})`);

  const words = countWords(text);
  if (words < MIN_WORDS) issues.push(`too short: ${words} words (minimum ${MIN_WORDS})`);
  if (words > MAX_WORDS) issues.push(`too long: ${words} words (maximum ${MAX_WORDS})`);

  for (const placeholder of findPlaceholders(text)) issues.push(`template placeholder: ${placeholder}`);

  const hardIssues = issues.length;
  const cliches = findCliches(text);
  for (const phrase of cliches) issues.push(`cliché: "${phrase}"`);

  return { kind: 'quality', passed: hardIssues === 0 && cliches.length <= 1, issues };
}

/**
 * The quality issue of a job whose company is only a board token, or null. Shared with the model
 * quality review, which is AND-ed with it: no reviewer can accept a letter addressed to a token.
 */
export function boardTokenIssue(company: string): string | null {
  if (!looksLikeBoardToken(company)) return null;
  return `company is a job-board token, not the employer's name: "${company.trim()}" (set company_name in the source's config)`;
}

/** Words as a reader counts them: whitespace-separated runs containing a letter or digit. */
export function countWords(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** Template placeholders left in the text, in order of appearance, deduplicated. */
export function findPlaceholders(text: string): string[] {
  const found: Array<{ at: number; text: string }> = [];
  const covered: Array<[number, number]> = [];
  for (const pattern of PLACEHOLDER_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (covered.some(([s, e]) => s <= start && end <= e)) continue; // "{x}" inside "{{x}}"
      covered.push([start, end]);
      found.push({ at: start, text: match[0] });
    }
  }
  return [...new Set(found.sort((a, b) => a.at - b.at).map((f) => f.text))];
}

/** Labels of the clichés the text uses, in CLICHES order. */
export function findCliches(text: string): string[] {
  return CLICHES.filter((c) => c.pattern.test(text)).map((c) => c.phrase);
}

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11,
  twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18,
  nineteen: 19, twenty: 20, thirty: 30,
};

const YEARS_RE = new RegExp(
  `(?<![\\p{L}\\p{N}-])(\\d{1,2}|${Object.keys(NUMBER_WORDS).join('|')})(\\s*\\+)?\\s+(?:full\\s+)?(?:years?|yrs?)\\b`,
  'giu',
);
const DECADES_RE = /\b(a|one|two|three)\s+decades?\b/gi;

/** "N years" claims in the text (hyphenated "5-year" adjectives are not claims). */
export function yearsClaims(text: string): Array<{ text: string; years: number }> {
  const claims: Array<{ text: string; years: number }> = [];
  for (const match of text.matchAll(YEARS_RE)) {
    const raw = match[1].toLowerCase();
    claims.push({ text: match[0], years: /^\d+$/.test(raw) ? Number(raw) : NUMBER_WORDS[raw] });
  }
  for (const match of text.matchAll(DECADES_RE)) {
    const count = match[1].toLowerCase();
    claims.push({ text: match[0], years: 10 * (count === 'a' || count === 'one' ? 1 : (NUMBER_WORDS[count] ?? 1)) });
  }
  return claims;
}

/** Removes verbatim quotes of the profile's own long texts (bullets, summary); see the header. */
function withoutProfileQuotes(text: string, profile: Profile): string {
  let result = text;
  const own = [...profile.experience.flatMap((e) => e.bullets), profile.summary]
    .map((t) => t.trim())
    .filter((t) => t.length >= 20)
    .sort((a, b) => b.length - a.length);
  for (const quote of own) result = result.split(quote).join(' . ');
  return result;
}

function namesCompany(text: string, company: string): boolean {
  return containsRun(nameWords(text), nameTokens(company));
}

function missingRoleWords(text: string, title: string): string[] {
  const letterWords = new Set([...titleCoreWords(text)].map(stemWord));
  return [...titleCoreWords(title)].filter((word) => !letterWords.has(stemWord(word)));
}
