import type { LlmClient, LlmUsage, StructuredRequest } from '@jobctrl/shared/llm';
import { answerObject, requiredField, requiredText, textList } from '@jobctrl/shared/llm';
import type { Profile } from '@jobctrl/shared/profile';
import type { ScoringJob } from './extractive-score.rules';

/**
 * Model scoring: the model reads the whole profile (history, not just skill names) and the posting,
 * and answers a fit score with its reasons. It complements the extractive scorer, whose skill
 * component only knows vocabulary skills. The answer is validated strictly (`parseModelScoreAnswer`)
 * and every error message names the offending field, because the client feeds that message to the
 * model in its single repair retry.
 *
 * Rubric given to the model (model-v1): 0–100 integer, where 90–100 = meets every stated
 * requirement and the title matches the candidate's target titles; 70–89 = meets most requirements;
 * 40–69 = partial fit; 0–39 = poor fit. `matched`/`missing` list the posting's requirements (its own
 * wording, short) the candidate does / does not demonstrably meet. Changing the prompt or the rubric
 * must bump MODEL_FORMULA_VERSION so stored scores stay comparable.
 *
 * The candidate's contact details are not sent (not needed to judge fit), and the description is cut
 * at MAX_DESCRIPTION_CHARS characters to bound the cost of pathological postings.
 */
export const MODEL_FORMULA_VERSION = 'model-v1';

export const MAX_DESCRIPTION_CHARS = 12_000;

export interface ModelScore {
  /** Integer 0..100. */
  score: number;
  rationale: string;
  matched: string[];
  missing: string[];
  formulaVersion: typeof MODEL_FORMULA_VERSION;
}

/** What the model answers; formulaVersion is ours, not the model's. */
export type ModelScoreAnswer = Omit<ModelScore, 'formulaVersion'>;

export type ModelScoringJob = ScoringJob & { company?: string };

export const MODEL_SCORE_SCHEMA: Record<string, unknown> = {
  type: 'object',
  additionalProperties: false,
  required: ['score', 'rationale', 'matched', 'missing'],
  properties: {
    score: { type: 'integer', minimum: 0, maximum: 100, description: 'Fit of the candidate to the posting, 0-100.' },
    rationale: { type: 'string', description: 'Two to four sentences explaining the score from the profile and posting.' },
    matched: { type: 'array', items: { type: 'string' }, description: 'Posting requirements the candidate meets.' },
    missing: { type: 'array', items: { type: 'string' }, description: 'Posting requirements the candidate does not meet.' },
  },
};

const SYSTEM_PROMPT = [
  'You assess how well a job candidate fits a job posting. Use only the candidate profile and the posting given; do not assume skills or experience the profile does not state.',
  'Answer with JSON matching the schema:',
  '- score: an integer from 0 to 100. 90-100: meets every stated requirement and the role matches the target titles; 70-89: meets most requirements; 40-69: partial fit; 0-39: poor fit.',
  '- rationale: two to four plain sentences explaining the score.',
  "- matched: the posting's requirements the profile shows the candidate meets, each in a few words of the posting's own wording.",
  "- missing: the posting's requirements the profile does not show, in the same style.",
].join('\n');

export async function scoreJobWithModel(
  client: LlmClient,
  profile: Profile,
  job: ModelScoringJob,
  options: { signal?: AbortSignal } = {},
): Promise<{ result: ModelScore; usage: LlmUsage[] }> {
  const request: StructuredRequest<ModelScoreAnswer> = {
    lane: 'score',
    system: SYSTEM_PROMPT,
    user: scoringUserPrompt(profile, job),
    schemaName: 'job_fit_score',
    schema: MODEL_SCORE_SCHEMA,
    parse: parseModelScoreAnswer,
    maxOutputTokens: 800,
    signal: options.signal,
  };
  const { value, usage } = await client.generate(request);
  return { result: { ...value, formulaVersion: MODEL_FORMULA_VERSION }, usage };
}

/** The user turn: the profile without contact details, then the posting. Exported for inspection in tests. */
export function scoringUserPrompt(profile: Profile, job: ModelScoringJob): string {
  const candidate = {
    summary: profile.summary,
    skills: profile.skills,
    experience: profile.experience,
    education: profile.education,
    targetTitles: profile.preferences.titles,
    preferredLocations: profile.preferences.locations,
    wantsRemote: profile.preferences.remote ?? null,
  };
  const description = job.description ?? '';
  const posting = {
    title: job.title,
    company: job.company ?? null,
    location: job.location ?? null,
    // Only when the posting lists more than its primary location (a one-location prompt stays as it was).
    ...(job.locations && job.locations.length > 1 ? { locations: job.locations } : {}),
    remote: job.remote ?? null,
    requirements: job.requirements ?? null,
    description: description.length > MAX_DESCRIPTION_CHARS ? `${description.slice(0, MAX_DESCRIPTION_CHARS)} [truncated]` : description,
  };
  return `Candidate profile (JSON):\n${JSON.stringify(candidate, null, 2)}\n\nJob posting (JSON):\n${JSON.stringify(posting, null, 2)}`;
}

/** Strict validation of the model's answer; every message starts with the field it is about. */
export function parseModelScoreAnswer(value: unknown): ModelScoreAnswer {
  const record = answerObject(value, ['score', 'rationale', 'matched', 'missing']);
  const score = requiredField(record, 'score');
  if (typeof score !== 'number' || !Number.isInteger(score) || score < 0 || score > 100) {
    throw new Error(`score: must be an integer from 0 to 100 (got ${JSON.stringify(score)})`);
  }
  return { score, rationale: requiredText(record, 'rationale'), matched: textList(record, 'matched'), missing: textList(record, 'missing') };
}
