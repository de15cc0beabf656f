import { answerObject, type Effort, type LlmClient } from '@jobctrl/shared/llm';
import { decided } from './compensation.determination';
import type { CompensationInterval, CompensationKind, CompensationResult, CompensationRowInput } from './compensation.types';
import { parseLocaleNumber } from './salary.parser';

/**
 * The model step of a compensation determination, for the rows the parser leaves undecided
 * ("Salary: 60k-100k" with no currency and no country, an unusual wording). A model's answer is
 * untrusted input: it is accepted only when every figure it gives is written in the row's own text
 * (so a model that invents a salary for "Competitive" is refused, not published), its confidence is
 * capped below the parser's, and a refused answer leaves the row undecided with the reason.
 */
export const MODEL_DETERMINATION_VERSION = 'compensation-model/1';
/** A model's reading is never as sure as a rule that matched: it ranks below parser rows of the same kind. */
export const MODEL_CONFIDENCE_CAP = 0.7;

const KINDS: readonly CompensationKind[] = ['base', 'hourly', 'ote', 'bonus', 'equity', 'none'];
const INTERVALS: readonly CompensationInterval[] = ['year', 'month', 'week', 'day', 'hour'];

export interface ModelCompensationAnswer {
  kind: CompensationKind;
  currency: string | null;
  interval: CompensationInterval | null;
  min: number | null;
  max: number | null;
  confidence: number;
}

const SCHEMA: Record<string, unknown> = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'currency', 'interval', 'min', 'max', 'confidence'],
  properties: {
    kind: { type: 'string', enum: KINDS },
    currency: { type: ['string', 'null'], description: 'ISO 4217 code, or null when the text names none' },
    interval: { type: ['string', 'null'], enum: [...INTERVALS, null] },
    min: { type: ['number', 'null'] },
    max: { type: ['number', 'null'] },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
  },
};

const SYSTEM = [
  'You read one compensation statement from a job posting and say what it states, nothing more.',
  'kind: base (salary), hourly (an hourly wage), ote (on-target earnings), bonus, equity, or none (no figure, e.g. "competitive").',
  'min/max: the figures exactly as written, expanded ("120k" is 120000); null for a bound the text does not give.',
  'currency: the ISO 4217 code the text states or clearly implies; null if it does not. interval: the period the figures are per; null if unstated.',
  'Never guess a figure that is not in the text.',
].join('\n');

/** Reads and checks the shape of a model's answer; messages name the field (they go back in the repair turn). */
export function parseModelAnswer(value: unknown): ModelCompensationAnswer {
  const a = answerObject(value, ['kind', 'currency', 'interval', 'min', 'max', 'confidence']);
  if (!KINDS.includes(a['kind'] as CompensationKind)) throw new Error(`kind: must be one of ${KINDS.join(', ')}`);
  const currency = a['currency'] ?? null;
  if (currency !== null && (typeof currency !== 'string' || !/^[A-Za-z]{3}$/.test(currency))) throw new Error('currency: must be a 3-letter ISO 4217 code or null');
  const interval = a['interval'] ?? null;
  if (interval !== null && !INTERVALS.includes(interval as CompensationInterval)) throw new Error(`interval: must be one of ${INTERVALS.join(', ')} or null`);
  const bound = (key: 'min' | 'max'): number | null => {
    const v = a[key] ?? null;
    if (v !== null && (typeof v !== 'number' || !Number.isFinite(v) || v < 0)) throw new Error(`${key}: must be a non-negative number or null`);
    return v as number | null;
  };
  const confidence = a['confidence'];
  if (typeof confidence !== 'number' || !(confidence >= 0 && confidence <= 1)) throw new Error('confidence: must be a number from 0 to 1');
  return { kind: a['kind'] as CompensationKind, currency: currency === null ? null : (currency as string).toUpperCase(), interval: interval as CompensationInterval | null, min: bound('min'), max: bound('max'), confidence };
}

/**
 * Every amount the text writes, as the parser would read it, with "k"/"M" suffixes applied both
 * ways ("60k" is 60 and 60000), so a grounded answer can be recognised whatever form it used.
 */
export function figuresIn(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/(\d[\d.,'’\s\u00a0\u202f]*\d|\d)\s?(k|K|m|M|mn|lakhs?)?(?![\d])/g)) {
    const n = parseLocaleNumber(m[1].trim());
    if (n === undefined) continue;
    out.push(n);
    const suffix = m[2]?.toLowerCase();
    if (suffix === 'k') out.push(n * 1_000);
    else if (suffix === 'm' || suffix === 'mn') out.push(n * 1_000_000);
    else if (suffix?.startsWith('lakh')) out.push(n * 100_000);
  }
  return out;
}

/** Why an answer cannot be accepted for this text, or null when it can. */
export function ungroundedReason(answer: ModelCompensationAnswer, text: string): string | null {
  const figures = figuresIn(text);
  const written = (n: number) => figures.some((f) => Math.abs(f - n) <= Math.max(0.01, f * 0.001));
  if (answer.kind === 'none') return answer.min !== null || answer.max !== null ? 'model_figures_without_pay' : null;
  // Equity may be stated as a share only ("up to 3%"): no amount is fine; any amount given must be written.
  if (answer.kind !== 'equity' && answer.min === null && answer.max === null) return 'model_no_figures';
  for (const key of ['min', 'max'] as const) {
    const v = answer[key];
    if (v !== null && !written(v)) return `model_${key}_not_in_text`;
  }
  return null;
}

export interface ModelDeterminationContext {
  client: LlmClient;
  effort?: Effort;
  /** The refresh's stop signal: a cancelled refresh aborts the call in flight. */
  signal?: AbortSignal;
}

/**
 * Asks the model about one row and checks its answer against the row's text. The call goes through
 * `client`, which the caller builds from the worker's LlmRuntime, so it is admitted by the spend
 * preflight and charged to the `compensation` lane like every other model call.
 */
export async function determineWithModel(row: CompensationRowInput, ctx: ModelDeterminationContext): Promise<CompensationResult> {
  const user = [`Statement (${row.field ?? 'description'}):`, row.text.slice(0, 2_000), row.country ? `Posting country: ${row.country}` : 'Posting country: not stated'].join('\n');
  const { value } = await ctx.client.generate({
    lane: 'compensation',
    ...(ctx.effort ? { effort: ctx.effort } : {}),
    system: SYSTEM,
    user,
    schemaName: 'compensation_row',
    schema: SCHEMA,
    parse: parseModelAnswer,
    maxOutputTokens: 200,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  const refused = ungroundedReason(value, row.text);
  if (refused) return { decided: false, method: 'model', confidence: 0, reason: refused, flags: ['model_answer_refused'] };
  const minMax = value.min !== null && value.max !== null && value.min > value.max ? { min: value.max, max: value.min, swapped: true } : { min: value.min, max: value.max, swapped: false };
  const flags = minMax.swapped ? ['swapped_min_max'] : [];
  if (value.kind !== 'none' && value.kind !== 'equity' && !value.currency) flags.push('currency_unknown');
  return decided({ kind: value.kind, currency: value.currency, interval: value.interval, min: minMax.min, max: minMax.max }, Math.min(MODEL_CONFIDENCE_CAP, value.confidence), flags, 'model');
}
