import { decodeHtmlEntities } from '@jobctrl/shared/html';
import { annualize } from './annualize.rules';
import type {
  CompensationDetermination,
  CompensationInterval,
  CompensationKind,
  CompensationResult,
  CompensationRowInput,
  StructuredCompensation,
  UndecidedCompensation,
} from './compensation.types';
import { countryCurrency, dollarCurrencyOf, kronaCurrencyOf } from './country-currency.rules';
import { SALARY_CUE_RE, UNIT_SCALE, findSalaryStatements, inferPeriod, type SalaryStatement } from './salary.parser';

/**
 * The deterministic determination of one compensation row (docs/decisions.md, "Compensation
 * determination"). Structured values are taken as given; text is read by the salary parser and each
 * statement's surroundings tell base pay from OTE, a bonus, equity, or a figure that is not pay at
 * all (funding, prices, allowances). A reading whose confidence falls below DECISION_THRESHOLD is
 * returned undecided, with the reason, for a later model step.
 */
export const PARSER_VERSION = 'compensation-parser/1';
export const DECISION_THRESHOLD = 0.5;

/** "Competitive", "DOE", "negotiable": the posting says there is pay but gives no figure. */
const NO_FIGURE_RE =
  /\b(?:competitive|doe|depending on (?:experience|qualifications)|negotiable|commensurate|not (?:provided|disclosed|specified|stated)|to be discussed|tbd|etter avtale|nach vereinbarung|à négocier|unpaid|volunteer)\b/i;
const EQUITY_RE = /\b(?:equity|stock options?|share options?|rsus?|esops?|shares)\b/i;
/** A bonus given only as a share of pay or profit ("Up to 10% bonus", "bonus of 15%"). */
const BONUS_SHARE_RE = /\bbonus(?:es)?\b[^.\d]{0,40}\d+(?:[.,]\d+)?\s?%|\d+(?:[.,]\d+)?\s?%[^.\d]{0,30}\bbonus/i;

/** Words before a figure that make it something other than pay (funding, market sizes, prices, perks). */
const NOT_PAY_BEFORE_RE =
  /\b(?:raised?|raising|funding|funded|series [a-e]|round|revenue|valuation|valued|market|industry|price|priced|costs?|spend|spent|budget(?!\s+for\s+(?:this|the)\s+(?:position|role))|allowance|stipend|wellness|referral|pension|insurance|cover|aum|invest(?:ed|ment|ors?)?|lent|volume|deals?|gmv|arr|quote|fees?|offers? all you can)\W+(?:\w+\W+){0,4}$/i;
/** Words right after a figure that do the same ("$300 monthly allowance", "$5,000 referral bonus"). */
const NOT_PAY_AFTER_RE =
  /^\W{0,3}(?:[\w-]+\s+){0,3}?(?:allowance|budget|stipend|wellness|referral|limit on|pension|in (?:funding|sales|revenue|volume|transactions|investment|venture)|seed|series|round|market|industry|learning|deductible)\b/i;
const OTE_AFTER_RE = /^\W{0,3}(?:[A-Z]{3}\s+)?\(?(?:OTE\b|[Oo]n[- ][Tt]arget)/;
const OTE_MENTION_RE = /\bOTE\b|on[- ]target[- ]earnings/i;
const OTE_BEFORE_RE = /(?:\bOTE|on[- ]target[- ]earnings?|target earnings|total earnings)\W{0,20}$/i;
// "12 LPA fixed + 3 LPA variable": the fixed part is the base, the variable part a bonus.
const BASE_AFTER_RE = /^\W{0,3}(?:base|basic|fixed|fix|fixe|fixo|fijo)\b/i;
/** Equity stated with a value: "ESOPs worth 5 LPA", "$50k in equity", "RSU grant of $200k". */
const EQUITY_BEFORE_RE = /\b(?:equity|stock options?|share options?|rsus?|esops?)(?:\s+(?:grant|package|award))?(?:\s+(?:of|worth|valued at))?\W{0,10}$/i;
const EQUITY_AFTER_RE = /^\s*(?:(?:in|of)\s+)?(?:equity|stock options?|share options?|rsus?|esops?)\b/i;
const BASE_BEFORE_RE = /\bbase(?: salary| pay| compensation)?\W{0,15}$/i;
// "£40-85k + Bonus" is base pay plus a bonus; "$5,000 signing bonus" is the bonus itself.
const BONUS_AFTER_RE = /^[\s:]{0,2}(?:(?:(?:signing|sign-on|joining|annual|performance|target|yearly)\s+)?bonus\b|variable\b|variabel\b)/i;
/** "$105,000 Minimum Salary": the figure is a floor. */
const FLOOR_AFTER_RE = /^\s*(?:minimum|min\.|or more|and up)\b/i;
const BONUS_BEFORE_RE = /\bbonus(?:es)?(?: of| up to)?\W{0,10}$/i;

type Role = 'base' | 'ote' | 'bonus' | 'equity' | 'not_pay' | 'plain';

export function determineCompensation(row: CompensationRowInput): CompensationResult {
  if (row.structured && (row.structured.min != null || row.structured.max != null)) return fromStructured(row.structured);
  return fromText(row);
}

function fromText(row: CompensationRowInput): CompensationResult {
  // Text fields from boards and pages may still carry character references ("&pound;8.42 per hour").
  const text = decodeHtmlEntities(row.text ?? '');
  const flags: string[] = [];
  const localCurrency = countryCurrency(row.country);
  const options = { dollarCurrency: dollarCurrencyOf(row.country), kronaCurrency: kronaCurrencyOf(row.country) };
  let statements = findSalaryStatements(text, options);
  let assumedCurrency = false;
  if (statements.length === 0 && localCurrency) {
    // Figures without any currency ("SALARY: 100-140k") on a posting whose country is stated.
    statements = findSalaryStatements(text, { ...options, defaultCurrency: localCurrency });
    assumedCurrency = statements.length > 0;
  }

  const roles = statements.map((s) => ({ statement: s, role: roleOf(text, s) }));
  const pay = roles.filter((r) => r.role !== 'not_pay' && plausible(r.statement));
  const chosen =
    pay.find((r) => r.role === 'base') ??
    pay.find((r) => r.role === 'plain') ??
    pay.find((r) => r.role === 'ote') ??
    pay.find((r) => r.role === 'bonus') ??
    pay.find((r) => r.role === 'equity');

  if (!chosen) {
    if (statements.length === 0 && SALARY_CUE_RE.test(text) && /\d+\s?k\b|\d{2,3}[,.' ]\d{3}/i.test(text) && !NO_FIGURE_RE.test(text)) {
      // "Salary: 60k-100k" with no currency and no country: a model (or the user) must say which.
      return undecided('no_currency', 0.3, flags);
    }
    if (statements.length === 0 && EQUITY_RE.test(text) && !NO_FIGURE_RE.test(text) && /\d\s?%/.test(text)) {
      return decided({ kind: 'equity', currency: null, interval: null, min: null, max: null }, 0.75, flags);
    }
    if (statements.length === 0 && BONUS_SHARE_RE.test(text) && !NO_FIGURE_RE.test(text)) {
      return decided({ kind: 'bonus', currency: null, interval: null, min: null, max: null }, 0.75, flags);
    }
    // Nothing that reads as pay: "Competitive", "DOE", funding rounds, prices, perks.
    return decided({ kind: 'none', currency: null, interval: null, min: null, max: null }, NO_FIGURE_RE.test(text) || statements.length > 0 ? 0.85 : 0.7, flags);
  }

  const s = chosen.statement;
  let confidence = 0.9;
  if (row.field === 'description') confidence -= 0.05;
  if (s.periodInferred) {
    flags.push('interval_inferred');
    // A yearly reading of "$120k" is near certain and a monthly one of "4 500 €" likely (few hourly or
    // daily rates reach the month band); "$45" read as hourly is a guess.
    confidence -= s.period === 'year' ? 0.1 : s.period === 'month' ? 0.2 : 0.35;
  }
  if (s.currencyFromHint) {
    flags.push('currency_from_country');
    confidence -= 0.05;
  }
  if (assumedCurrency) {
    flags.push('currency_from_country');
    confidence -= 0.15;
  }
  if (s.swapped) {
    flags.push('swapped_min_max');
    confidence -= 0.05;
  }
  if (chosen.role === 'plain' && roles.some((r) => r.role === 'ote' && r !== chosen)) flags.push('ote_also_stated');
  // "The listed range is the total OTE with a 80/20 base to commission split. $107.9K – $148.4K": the
  // only figure is the OTE the text speaks of, even when the words are not right next to it.
  const role = chosen.role === 'plain' && !roles.some((r) => r.role === 'ote' || r.role === 'base') && OTE_MENTION_RE.test(text) ? 'ote' : chosen.role;

  const kind: CompensationKind =
    role === 'ote' || role === 'bonus' || role === 'equity' ? role : s.period === 'hour' ? 'hourly' : 'base';
  const min = s.bound === 'up_to' ? null : s.min;
  const max = s.bound === 'from' || FLOOR_AFTER_RE.test(text.slice(s.end, s.end + 20)) ? null : s.max;
  // A bonus or an equity grant with no stated period is a yearly (or one-off) sum, whatever its size.
  const interval = (kind === 'bonus' || kind === 'equity') && s.periodInferred ? 'year' : s.period;
  const result = decided({ kind, currency: s.currency, interval, min, max }, confidence, flags);
  if (result.decided && result.confidence < DECISION_THRESHOLD) return undecided('low_confidence', result.confidence, flags);
  return result;
}

function fromStructured(value: StructuredCompensation): CompensationResult {
  const flags: string[] = [];
  let confidence = 0.98;
  let min = value.min ?? null;
  let max = value.max ?? null;
  if (min != null && max != null && min > max) {
    [min, max] = [max, min];
    flags.push('swapped_min_max');
    confidence -= 0.03;
  }
  let interval = value.interval ?? null;
  const currency = value.currency ? value.currency.toUpperCase() : null;
  if (!interval) {
    interval = inferPeriod(Math.max(min ?? 0, max ?? 0), currency ?? 'USD');
    flags.push('interval_inferred');
    confidence -= interval === 'year' ? 0.1 : 0.35;
  }
  const kind = value.kind ?? (interval === 'hour' ? 'hourly' : 'base');
  const result = decided({ kind, currency, interval, min, max }, confidence, flags);
  if (result.decided && result.confidence < DECISION_THRESHOLD) return undecided('low_confidence', result.confidence, flags);
  return result;
}

export interface Reading {
  kind: CompensationKind;
  currency: string | null;
  interval: CompensationInterval | null;
  min: number | null;
  max: number | null;
}

/** A reading with its annualised bounds (null where the currency or interval is unknown). */
export function decided(reading: Reading, confidence: number, flags: string[], method: CompensationDetermination['method'] = 'parser'): CompensationDetermination {
  const yearly = (n: number | null) =>
    n == null || !reading.interval || !reading.currency
      ? null
      : annualize({ currency: reading.currency, min: n, max: n, period: reading.interval, raw: '' }).min;
  return {
    decided: true,
    ...reading,
    minYearly: yearly(reading.min),
    maxYearly: yearly(reading.max),
    confidence: Math.round(confidence * 100) / 100,
    method,
    flags,
  };
}

function undecided(reason: string, confidence: number, flags: string[]): UndecidedCompensation {
  return { decided: false, method: 'parser', confidence: Math.round(confidence * 100) / 100, reason, flags };
}

/** What a statement is, from the words right around it. */
function roleOf(text: string, s: SalaryStatement): Role {
  const before = text.slice(Math.max(0, s.start - 60), s.start);
  const after = text.slice(s.end, s.end + 40);
  const clause = before.slice(Math.max(before.lastIndexOf('|'), before.lastIndexOf('. '), before.lastIndexOf('\n')) + 1);
  if (NOT_PAY_AFTER_RE.test(after) || NOT_PAY_BEFORE_RE.test(clause) || /\bsub-$/i.test(clause)) return 'not_pay';
  // The word right after a figure names it more surely than one before it: in "$80K – $110K OTE
  // (CA$50K base", the 50K follows "OTE" but is the base.
  if (OTE_AFTER_RE.test(after)) return 'ote';
  if (BASE_AFTER_RE.test(after)) return 'base';
  if (BONUS_AFTER_RE.test(after)) return 'bonus';
  if (EQUITY_AFTER_RE.test(after)) return 'equity';
  if (OTE_BEFORE_RE.test(clause)) return 'ote';
  if (BASE_BEFORE_RE.test(clause)) return 'base';
  if (BONUS_BEFORE_RE.test(clause)) return 'bonus';
  if (EQUITY_BEFORE_RE.test(clause)) return 'equity';
  // A small figure whose period is only guessed ("we take $1") is pay only where the text says so.
  // A field that is nothing but the figure ("15 000–20 000 PLN B2B") is a pay field: its name is the cue.
  const standalone = text.trim().length <= s.raw.length + 25;
  if (s.periodInferred && s.period !== 'year' && !standalone && !SALARY_CUE_RE.test(clause + after)) return 'not_pay';
  return 'plain';
}

/**
 * Pay a person could live on, in USD-equivalent a year: at least 1,000 and at most 5,000,000. Keeps
 * out "$8.99 a month" subscriptions and "$5/mo" prices that carry a currency and a period.
 */
function plausible(s: SalaryStatement): boolean {
  const yearly = annualize({ ...s, min: s.max, max: s.max }).max / (UNIT_SCALE[s.currency] ?? 1);
  return yearly >= 1000 && yearly <= 5_000_000;
}
