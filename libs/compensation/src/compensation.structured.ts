import type { CompensationInterval, CompensationKind, CompensationRowInput, StructuredCompensation } from './compensation.types';

/**
 * Rows from the structured shapes boards publish, one helper per shape, pure over the board's JSON.
 * Each row keeps the raw JSON as its text (for provenance and a later model step) and the value read
 * from it as `structured`, which determineCompensation takes as given.
 */

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

function row(field: string, raw: unknown, structured: StructuredCompensation, country?: string | null): CompensationRowInput {
  return { text: JSON.stringify(raw), field, country: country ?? null, structured };
}

/** "YEAR", "HOUR", "1 YEAR", "per-hour-wage", "yearly": the interval words boards use. */
export function intervalOf(unit: unknown): CompensationInterval | null {
  const u = str(unit)?.toLowerCase() ?? '';
  if (/hour/.test(u)) return 'hour';
  if (/day|daily/.test(u)) return 'day';
  if (/week/.test(u)) return 'week';
  if (/month/.test(u)) return 'month';
  if (/year|annual|annum/.test(u)) return 'year';
  return null;
}

/** JSON-LD JobPosting `baseSalary`: a MonetaryAmount whose value is a QuantitativeValue or a number. */
export function jsonLdBaseSalaryRows(baseSalary: unknown, country?: string | null): CompensationRowInput[] {
  const amount = obj(baseSalary);
  if (!amount) return [];
  const value = obj(amount['value']);
  const single = value ? num(value['value']) : num(amount['value']);
  const min = value ? (num(value['minValue']) ?? single) : single;
  const max = value ? (num(value['maxValue']) ?? single) : single;
  if (min === null && max === null) return [];
  const interval = intervalOf(value?.['unitText'] ?? amount['unitText']);
  return [row('jsonld.baseSalary', baseSalary, { currency: str(amount['currency']), interval, min, max }, country)];
}

/** RemoteOK `salary_min`/`salary_max`: yearly USD, 0 when the company gave none. */
export function remoteOkRows(job: unknown): CompensationRowInput[] {
  const j = obj(job);
  const min = num(j?.['salary_min']) || null;
  const max = num(j?.['salary_max']) || null;
  if (min === null && max === null) return [];
  return [row('remoteok.salary_min_max', { salary_min: j?.['salary_min'], salary_max: j?.['salary_max'] }, { currency: 'USD', interval: 'year', min, max })];
}

const ASHBY_KIND: Readonly<Record<string, CompensationKind>> = {
  salary: 'base', hourly: 'hourly', commission: 'ote', bonus: 'bonus', equitypercentage: 'equity', equitycashvalue: 'equity',
};

/**
 * Ashby `compensation`: one row per `summaryComponents` entry (Salary, Commission, Bonus, Equity…),
 * plus the `compensationTierSummary` text ("$120K – $150K • Offers Equity") as a text row.
 */
export function ashbyRows(compensation: unknown, country?: string | null): CompensationRowInput[] {
  const c = obj(compensation);
  if (!c) return [];
  const rows: CompensationRowInput[] = [];
  const components = Array.isArray(c['summaryComponents']) ? c['summaryComponents'] : [];
  components.forEach((raw, index) => {
    const component = obj(raw);
    if (!component) return;
    const type = (str(component['compensationType']) ?? '').toLowerCase().replace(/[^a-z]/g, '');
    const kind = ASHBY_KIND[type] ?? 'base';
    const interval = intervalOf(component['interval']);
    const percent = type === 'equitypercentage';
    rows.push(
      row(`ashby.compensation.summaryComponents[${index}]`, raw, {
        kind: kind === 'base' && interval === 'hour' ? 'hourly' : kind,
        // Equity as a percentage has no currency amount: the figures stay, the currency does not.
        currency: percent ? null : str(component['currencyCode']),
        interval: percent ? null : interval,
        min: num(component['minValue']),
        max: num(component['maxValue']),
      }, country),
    );
  });
  const summary = str(c['compensationTierSummary']);
  if (summary) rows.push({ text: summary, field: 'ashby.compensation.compensationTierSummary', country: country ?? null });
  return rows;
}

/** Lever `salaryRange {min, max, currency, interval: "per-year-salary" | "per-hour-wage" | …}`. */
export function leverRows(posting: unknown, country?: string | null): CompensationRowInput[] {
  const p = obj(posting);
  const range = obj(p?.['salaryRange']);
  const rows: CompensationRowInput[] = [];
  if (range && (num(range['min']) !== null || num(range['max']) !== null)) {
    const interval = intervalOf(range['interval']);
    rows.push(row('lever.salaryRange', range, { currency: str(range['currency']), interval, min: num(range['min']), max: num(range['max']) }, country));
  }
  const description = str(p?.['salaryDescriptionPlain']);
  if (description) rows.push({ text: description, field: 'lever.salaryDescription', country: country ?? null });
  return rows;
}

/**
 * Greenhouse `pay_input_ranges [{min_cents, max_cents, currency_type, title, blurb}]` (with
 * pay_transparency=true). The API states no interval, so it is read from the range's own title or
 * blurb ("Hourly rate"), else from the posting's text where it states this range's figures
 * ("Compensation: $75-$100 per hour"); else it stays open and determineCompensation's magnitude rule
 * decides. Cents become units here, once (nothing downstream converts them again).
 */
export function greenhouseRows(payInputRanges: unknown, country?: string | null, postingText?: string | null): CompensationRowInput[] {
  if (!Array.isArray(payInputRanges)) return [];
  return payInputRanges.flatMap((raw, index) => {
    const r = obj(raw);
    const minCents = num(r?.['min_cents']);
    const maxCents = num(r?.['max_cents']);
    if (!r || (minCents === null && maxCents === null)) return [];
    const min = minCents === null ? null : minCents / 100;
    const max = maxCents === null ? null : maxCents / 100;
    const interval = statedInterval(str(r['title'])) ?? statedInterval(str(r['blurb'])) ?? intervalStatedFor([min, max], postingText);
    return [row(`greenhouse.pay_input_ranges[${index}]`, raw, { currency: str(r['currency_type']), interval, min, max }, country)];
  });
}

/** Interval phrases as postings write them ("per hour", "an hour", "hourly", "/yr", "annual"). */
const INTERVAL_PHRASES: ReadonlyArray<readonly [RegExp, CompensationInterval]> = [
  [/\b(per|an|a|each)\s+hour\b|\bhourly\b|\/\s?(hr|hour)\b/i, 'hour'],
  [/\b(per|a|each)\s+day\b|\bdaily\b|\/\s?day\b/i, 'day'],
  [/\b(per|a|each)\s+week\b|\bweekly\b|\/\s?(wk|week)\b/i, 'week'],
  [/\b(per|a|each)\s+month\b|\bmonthly\b|\/\s?(mo|month)\b/i, 'month'],
  [/\b(per|a|each)\s+(year|annum)\b|\b(yearly|annual|annually|annualized)\b|\/\s?(yr|year)\b/i, 'year'],
];

/** The one interval a text states, or null (none, or several: "hourly or a year" decides nothing). */
function statedInterval(text: string | null | undefined): CompensationInterval | null {
  if (!text) return null;
  const found = INTERVAL_PHRASES.filter(([re]) => re.test(text)).map(([, interval]) => interval);
  return found.length === 1 ? found[0] : null;
}

/** Figures a text writes: "$75", "250,000", "$159.1K" → 75, 250000, 159100. */
function figuresOf(text: string): number[] {
  return [...text.matchAll(/(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?([kK])?\b/g)].map((m) => Number(m[1].replace(/,/g, '')) * (m[2] ? 1000 : 1));
}

/**
 * The interval the posting's text states next to the range's own figures: the lines (or sentences)
 * that write the range's min or max, and the one interval they agree on.
 */
function intervalStatedFor(figures: ReadonlyArray<number | null>, postingText: string | null | undefined): CompensationInterval | null {
  const wanted = figures.filter((f): f is number => f !== null && f > 0);
  if (!postingText || !wanted.length) return null;
  const stated = new Set<CompensationInterval>();
  for (const line of postingText.split(/\n+|(?<=[.!?])\s+/)) {
    if (!figuresOf(line).some((f) => wanted.includes(f))) continue;
    const interval = statedInterval(line);
    if (interval) stated.add(interval);
  }
  return stated.size === 1 ? [...stated][0] : null;
}

/** Workable `salary`: `{salary_from, salary_to, salary_currency}` as data, or a plain string. */
export function workableRows(salary: unknown, country?: string | null): CompensationRowInput[] {
  if (typeof salary === 'string') return salary.trim() ? [{ text: salary.trim(), field: 'workable.salary', country: country ?? null }] : [];
  const s = obj(salary);
  const min = num(s?.['salary_from']);
  const max = num(s?.['salary_to']);
  if (!s || (min === null && max === null)) return [];
  return [row('workable.salary', salary, { currency: str(s['salary_currency']), interval: intervalOf(s['salary_period'] ?? s['interval']), min, max }, country)];
}

/** SmartRecruiters `compensation`: `{min, max, currency, period}` as data, or a text. */
export function smartRecruitersRows(compensation: unknown, country?: string | null): CompensationRowInput[] {
  if (typeof compensation === 'string') return compensation.trim() ? [{ text: compensation.trim(), field: 'smartrecruiters.compensation', country: country ?? null }] : [];
  const c = obj(compensation);
  const min = num(c?.['min']);
  const max = num(c?.['max']);
  if (!c || (min === null && max === null)) return [];
  return [row('smartrecruiters.compensation', compensation, { currency: str(c['currency']), interval: intervalOf(c['period'] ?? c['interval']), min, max }, country)];
}

/** A JobSpy CSV row's amounts: `min_amount`, `max_amount`, `currency`, `interval` ("yearly", "hourly", …). */
export function jobSpyRows(amounts: unknown, country?: string | null): CompensationRowInput[] {
  const a = obj(amounts);
  const min = num(a?.['min_amount']);
  const max = num(a?.['max_amount']);
  if (!a || (min === null && max === null)) return [];
  return [row('jobspy.amounts', amounts, { currency: str(a['currency']), interval: intervalOf(a['interval']), min, max }, country)];
}
