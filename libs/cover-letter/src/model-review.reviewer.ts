import type { LlmClient, LlmUsage, StructuredRequest } from '@jobctrl/shared/llm';
import { answerObject, textList } from '@jobctrl/shared/llm';
import type { Profile } from '@jobctrl/shared/profile';
import { letterText, type CoverLetterJob, type LetterInput } from './cover-letter.types';
import { CLICHES, MAX_WORDS, MIN_WORDS, boardTokenIssue, factualReviewExtractive, type FactualReviewOptions } from './letter-review.rules';
import type { ReviewKind, ReviewVerdict } from './review.types';

/**
 * Model reviews of a cover letter (lane 'review'): a factual reviewer that compares every claim
 * with the profile, and a quality reviewer for relevance, tone and form. The model's factual verdict
 * is AND-ed with `factualReviewExtractive` and the issues merged (deterministic ones first,
 * duplicates dropped), so a model can never pass a letter that names an unknown employer or
 * overstates years of experience. The quality verdict is the model's: the extractive quality rules
 * are heuristics a model may legitimately overrule, unlike an invented employer — and unlike a
 * company that is only a board token (boardTokenIssue), which fails whatever the model says.
 *
 * A verdict that fails must list at least one issue; the validation message says so and the client
 * feeds it to its repair retry.
 */
export const REVIEW_VERDICT_SCHEMA: Record<string, unknown> = {
  type: 'object',
  additionalProperties: false,
  required: ['passed', 'issues'],
  properties: {
    passed: { type: 'boolean' },
    issues: { type: 'array', items: { type: 'string' }, description: 'One short line per problem; may hold advisories when passed.' },
  },
};

const FACTUAL_SYSTEM = [
  'You are a strict fact checker for cover letters. Compare every statement the letter makes about the candidate — employers, job titles, dates, years of experience, numbers, skills, education, achievements — with the candidate profile JSON.',
  'Statements about the company being applied to, and the candidate\'s wishes or intentions, are not claims to check.',
  'passed is true only when every claim is supported by the profile. List each unsupported claim as one issue, for example "unsupported employer: Initech" or "unsupported number: 45 services".',
  'Answer with JSON matching the schema.',
].join('\n');

const QUALITY_SYSTEM = [
  'You review the quality of a cover letter for a specific job posting. It fails when it does not name the company or the role, is shorter than ' +
    `${MIN_WORDS} or longer than ${MAX_WORDS} words, contains template placeholders, is generic rather than specific to the posting, is unprofessional in tone, or relies on stock phrases such as ` +
    CLICHES.map((c) => `"${c.phrase}"`).join(', ') +
    '.',
  'Do not judge whether facts are true; another reviewer does that. List each problem as one short issue; minor suggestions may be listed while passed is true.',
  'Answer with JSON matching the schema.',
].join('\n');

export interface ModelReviewOptions extends FactualReviewOptions {
  signal?: AbortSignal;
}

export async function factualReviewWithModel(
  client: LlmClient,
  profile: Profile,
  letter: LetterInput,
  job: CoverLetterJob,
  options: ModelReviewOptions = {},
): Promise<{ verdict: ReviewVerdict; usage: LlmUsage[] }> {
  const candidate = { summary: profile.summary, skills: profile.skills, experience: profile.experience, education: profile.education };
  const user = [
    `Company applied to: ${job.company}\nRole: ${job.title}`,
    `Candidate profile (JSON):\n${JSON.stringify(candidate, null, 2)}`,
    `Cover letter:\n"""\n${letterText(letter)}\n"""`,
  ].join('\n\n');
  const { value, usage } = await client.generate(reviewRequest('factual', FACTUAL_SYSTEM, user, options.signal));
  const extractive = factualReviewExtractive(profile, letter, job, options);
  return { verdict: { kind: 'factual', passed: value.passed && extractive.passed, issues: mergeIssues(extractive.issues, value.issues) }, usage };
}

export async function qualityReviewWithModel(
  client: LlmClient,
  letter: LetterInput,
  job: CoverLetterJob,
  options: { signal?: AbortSignal } = {},
): Promise<{ verdict: ReviewVerdict; usage: LlmUsage[] }> {
  const description = job.description.length > 4000 ? `${job.description.slice(0, 4000)} [truncated]` : job.description;
  const user = [
    `Job posting:\nCompany: ${job.company}\nRole: ${job.title}\nDescription:\n${description}`,
    `Cover letter:\n"""\n${letterText(letter)}\n"""`,
  ].join('\n\n');
  const { value, usage } = await client.generate(reviewRequest('quality', QUALITY_SYSTEM, user, options.signal));
  const token = boardTokenIssue(job.company);
  return { verdict: { kind: 'quality', passed: value.passed && !token, issues: token ? mergeIssues([token], value.issues) : value.issues }, usage };
}

function reviewRequest(kind: ReviewKind, system: string, user: string, signal?: AbortSignal): StructuredRequest<{ passed: boolean; issues: string[] }> {
  return {
    lane: 'review',
    system,
    user,
    schemaName: `${kind}_review`,
    schema: REVIEW_VERDICT_SCHEMA,
    parse: parseReviewAnswer,
    maxOutputTokens: 800,
    signal,
  };
}

/** Strict validation of a model verdict; messages name the field. */
export function parseReviewAnswer(value: unknown): { passed: boolean; issues: string[] } {
  const record = answerObject(value, ['passed', 'issues']);
  if (typeof record['passed'] !== 'boolean') throw new Error(record['passed'] === undefined ? 'passed: is required' : 'passed: must be true or false');
  const list = textList(record, 'issues');
  if (!record['passed'] && list.length === 0) throw new Error('issues: must list at least one problem when passed is false');
  return { passed: record['passed'], issues: list };
}

function mergeIssues(first: string[], second: string[]): string[] {
  const seen = new Set<string>();
  const merged: string[] = [];
  for (const issue of [...first, ...second]) {
    const key = issue.toLowerCase().replace(/\s+/g, ' ').trim();
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push(issue);
  }
  return merged;
}
