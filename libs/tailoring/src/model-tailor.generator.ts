import type { LlmClient, LlmUsage, StructuredRequest } from '@jobctrl/shared/llm';
import { answerObject, optionalText, requiredList, requiredText, textList } from '@jobctrl/shared/llm';
import type { Profile, ProfileEducation } from '@jobctrl/shared/profile';
import { tailorResumeExtractive } from './extractive-tailor.rules';
import { traceResume } from './no-new-facts.checker';
import { MODEL_TAILOR_VERSION, type TailoredExperience, type TailoredResume, type TailoringJob } from './tailored-resume.types';

/**
 * Model tailoring: the model may rephrase and emphasise, but only with the profile's facts, and its
 * answer is never returned unchecked:
 *
 *   1. ask for a rewrite (prompt: the rules below, the posting, the profile as JSON);
 *   2. the answer is validated (`parseTailoredResumeAnswer`, messages name the field: the client
 *      feeds them to its repair retry), then checked by `checkNoNewFacts`;
 *   3. on violations, ask once more, listing them next to the previous answer;
 *   4. if the second answer still violates, return the extractive resume with
 *      `fallback: 'no_new_facts_violation'` and the remaining violations.
 *
 * Client errors (spend refusals, timeouts, an answer still malformed after the repair retry)
 * propagate: the caller decides between retrying the stage and falling back to extractive.
 * Contact details are not sent (the renderer adds them); the description is cut at
 * MAX_DESCRIPTION_CHARS.
 */
export const MAX_DESCRIPTION_CHARS = 12_000;

export type TailoringFallback = 'no_new_facts_violation';

export interface ModelTailoringResult {
  resume: TailoredResume;
  /** Usage of every model call made, in order (including the rejected answer's). */
  usage: LlmUsage[];
  /** Set when the model's resume was rejected and `resume` is the extractive one. */
  fallback?: TailoringFallback;
  /** The violations of the last rejected answer (only with `fallback`). */
  violations?: string[];
}

/** The model's answer: a resume without provenance or method, which we add. */
export type TailoredResumeAnswer = Pick<TailoredResume, 'summary' | 'skills' | 'experience' | 'education'>;

const nullableString = { type: ['string', 'null'] };

export const TAILORED_RESUME_SCHEMA: Record<string, unknown> = {
  type: 'object',
  additionalProperties: false,
  required: ['summary', 'skills', 'experience', 'education'],
  properties: {
    summary: { type: 'string' },
    skills: { type: 'array', items: { type: 'string' } },
    experience: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['employer', 'title', 'start', 'end', 'location', 'bullets'],
        properties: {
          employer: { type: 'string' },
          title: { type: 'string' },
          start: { type: 'string' },
          end: { ...nullableString, description: 'null for a current role' },
          location: nullableString,
          bullets: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    education: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['school', 'degree', 'field', 'start', 'end'],
        properties: { school: { type: 'string' }, degree: nullableString, field: nullableString, start: nullableString, end: nullableString },
      },
    },
  },
};

const SYSTEM_PROMPT = [
  "You tailor a candidate's resume to a job posting. You may only use facts stated in the candidate profile JSON; anything else is a fabrication and the resume will be rejected.",
  'Rules:',
  '1. experience: keep every entry\'s employer, title, start and end exactly as in the profile (end null means a current role); do not add entries; most recent first.',
  '2. bullets: each bullet must rephrase one bullet of the SAME profile entry, reusing its key words; emphasise what the posting asks for; at most 5 bullets per entry. Never add numbers, percentages, money amounts, tools or results that are not in that entry\'s bullets, and copy numbers exactly.',
  "3. skills: only skills from the profile's skills list, spelled as there; those the posting mentions first.",
  '4. education: copy entries from the profile; null for fields the profile does not give.',
  '5. summary: two or three sentences based on the profile summary and experience. Do not name any company, product or person absent from the profile, and do not mention the company you are applying to.',
  'Answer with JSON matching the schema.',
].join('\n');

export async function tailorResumeWithModel(
  client: LlmClient,
  profile: Profile,
  job: TailoringJob,
  options: { signal?: AbortSignal } = {},
): Promise<ModelTailoringResult> {
  const usage: LlmUsage[] = [];
  const baseUser = tailoringUserPrompt(profile, job);
  const ask = async (user: string) => {
    const request: StructuredRequest<TailoredResumeAnswer> = {
      lane: 'tailor',
      system: SYSTEM_PROMPT,
      user,
      schemaName: 'tailored_resume',
      schema: TAILORED_RESUME_SCHEMA,
      parse: parseTailoredResumeAnswer,
      maxOutputTokens: 4000,
      signal: options.signal,
    };
    const result = await client.generate(request);
    usage.push(...result.usage);
    return result.value;
  };

  const first = await ask(baseUser);
  const firstTrace = traceResume(profile, first, { targetCompany: job.company });
  if (firstTrace.passed) return { resume: modelResume(first, firstTrace.provenance), usage };

  const second = await ask(retryUserPrompt(baseUser, first, firstTrace.violations));
  const secondTrace = traceResume(profile, second, { targetCompany: job.company });
  if (secondTrace.passed) return { resume: modelResume(second, secondTrace.provenance), usage };

  return { resume: tailorResumeExtractive(profile, job), usage, fallback: 'no_new_facts_violation', violations: secondTrace.violations };
}

/** The user turn: the posting, then the profile without contact details. */
export function tailoringUserPrompt(profile: Profile, job: TailoringJob): string {
  const description = job.description.length > MAX_DESCRIPTION_CHARS ? `${job.description.slice(0, MAX_DESCRIPTION_CHARS)} [truncated]` : job.description;
  const posting = { title: job.title, company: job.company, requirements: job.requirements ?? null, description };
  const facts = { summary: profile.summary, skills: profile.skills, experience: profile.experience, education: profile.education };
  return `Job posting (JSON):\n${JSON.stringify(posting, null, 2)}\n\nCandidate profile (JSON):\n${JSON.stringify(facts, null, 2)}`;
}

function retryUserPrompt(baseUser: string, previous: TailoredResumeAnswer, violations: string[]): string {
  return [
    baseUser,
    '',
    `Your previous answer:\n${JSON.stringify(previous, null, 2)}`,
    '',
    'It states facts that are not in the profile:',
    ...violations.map((v) => `- ${v}`),
    '',
    'Write the resume again, fixing every listed problem and following all the rules.',
  ].join('\n');
}

function modelResume(answer: TailoredResumeAnswer, provenance: TailoredResume['provenance']): TailoredResume {
  return { ...answer, provenance, method: 'model', version: MODEL_TAILOR_VERSION };
}

// ---------------------------------------------------------------------------------------------
// Validation of the model's answer: every message starts with the path of the offending field.

export function parseTailoredResumeAnswer(value: unknown): TailoredResumeAnswer {
  const root = answerObject(value, ['summary', 'skills', 'experience', 'education']);
  const summary = requiredText(root, 'summary');
  const skills = textList(root, 'skills');
  const experience = requiredList(root, 'experience').map((item, i) => {
    const path = `experience[${i}]`;
    const entry = answerObject(item, ['employer', 'title', 'start', 'end', 'location', 'bullets'], path);
    const result: TailoredExperience = {
      employer: requiredText(entry, 'employer', `${path}.employer`),
      title: requiredText(entry, 'title', `${path}.title`),
      start: requiredText(entry, 'start', `${path}.start`),
      end: optionalText(entry, 'end', `${path}.end`) ?? null,
      bullets: textList(entry, 'bullets', `${path}.bullets`),
    };
    const location = optionalText(entry, 'location', `${path}.location`);
    if (location !== undefined) result.location = location;
    return result;
  });
  const education = requiredList(root, 'education').map((item, i) => {
    const path = `education[${i}]`;
    const entry = answerObject(item, ['school', 'degree', 'field', 'start', 'end'], path);
    const result: ProfileEducation = { school: requiredText(entry, 'school', `${path}.school`) };
    for (const field of ['degree', 'field', 'start', 'end'] as const) {
      const found = optionalText(entry, field, `${path}.${field}`);
      if (found !== undefined) result[field] = found;
    }
    return result;
  });
  return { summary, skills, experience, education };
}

