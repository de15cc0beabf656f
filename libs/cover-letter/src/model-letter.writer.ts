import type { LlmClient, LlmUsage, StructuredRequest } from '@jobctrl/shared/llm';
import { answerObject, requiredText } from '@jobctrl/shared/llm';
import type { Profile } from '@jobctrl/shared/profile';
import { MODEL_LETTER_VERSION, type CoverLetter, type CoverLetterJob } from './cover-letter.types';
import { CLICHES, MAX_WORDS, MIN_WORDS, findPlaceholders } from './letter-review.rules';

/**
 * Model-written cover letters (lane 'cover'). The prompt carries the rules the review pair will
 * enforce — only profile facts, name the company and the role, MIN_WORDS–MAX_WORDS words, no
 * placeholders, none of the CLICHES — so a first draft usually passes. When a review pair rejects a
 * draft, the caller regenerates with `feedback` (the rejected pair's issues), which the prompt lists
 * as problems to fix. The answer's validation rejects empty text and leftover placeholders (the
 * client's repair retry fixes those cheaply); everything else is the reviews' job. The candidate's
 * email and phone are not sent: the letter signs with the name only.
 */
export const MAX_DESCRIPTION_CHARS = 12_000;

export const COVER_LETTER_SCHEMA: Record<string, unknown> = {
  type: 'object',
  additionalProperties: false,
  required: ['text'],
  properties: { text: { type: 'string', description: 'The complete cover letter, greeting to sign-off, plain text.' } },
};

const SYSTEM_PROMPT = [
  'You write a cover letter for a job candidate, in the first person, in plain text (no Markdown).',
  'Use only facts stated in the candidate profile JSON: never invent employers, job titles, dates, years of experience, numbers, skills, degrees or achievements. Quote or closely paraphrase the profile\'s bullets when citing work.',
  'Name the company and the exact role. Write ' + `${MIN_WORDS + 80}-${MAX_WORDS - 100}` + ' words: a greeting, three or four short paragraphs, and a sign-off with the candidate\'s name.',
  'No template placeholders such as [Company] or {name}. Avoid stock phrases, in particular: ' + CLICHES.map((c) => `"${c.phrase}"`).join(', ') + '.',
  'Answer with JSON matching the schema.',
].join('\n');

export async function writeCoverLetterWithModel(
  client: LlmClient,
  profile: Profile,
  job: CoverLetterJob,
  feedback?: string[],
  options: { signal?: AbortSignal } = {},
): Promise<{ letter: CoverLetter; usage: LlmUsage[] }> {
  const request: StructuredRequest<string> = {
    lane: 'cover',
    system: SYSTEM_PROMPT,
    user: coverLetterUserPrompt(profile, job, feedback),
    schemaName: 'cover_letter',
    schema: COVER_LETTER_SCHEMA,
    parse: parseCoverLetterAnswer,
    maxOutputTokens: 1500,
    signal: options.signal,
  };
  const { value, usage } = await client.generate(request);
  return { letter: { text: value, method: 'model', version: MODEL_LETTER_VERSION }, usage };
}

export function coverLetterUserPrompt(profile: Profile, job: CoverLetterJob, feedback?: string[]): string {
  const description = job.description.length > MAX_DESCRIPTION_CHARS ? `${job.description.slice(0, MAX_DESCRIPTION_CHARS)} [truncated]` : job.description;
  const posting = { title: job.title, company: job.company, requirements: job.requirements ?? null, description };
  const candidate = {
    name: profile.contact.name,
    summary: profile.summary,
    skills: profile.skills,
    experience: profile.experience,
    education: profile.education,
  };
  const parts = [`Job posting (JSON):\n${JSON.stringify(posting, null, 2)}`, `Candidate profile (JSON):\n${JSON.stringify(candidate, null, 2)}`];
  const problems = (feedback ?? []).map((f) => f.trim()).filter(Boolean);
  if (problems.length > 0) {
    parts.push(['A previous draft was rejected by review for these problems:', ...problems.map((p) => `- ${p}`), 'Write a new letter that fixes every one of them.'].join('\n'));
  }
  return parts.join('\n\n');
}

/** The letter text; messages name the field, for the client's repair retry. */
export function parseCoverLetterAnswer(value: unknown): string {
  const text = requiredText(answerObject(value, ['text']), 'text');
  const placeholders = findPlaceholders(text);
  if (placeholders.length > 0) throw new Error(`text: contains template placeholders (${placeholders.join(', ')}); fill them from the profile and posting`);
  return text;
}
