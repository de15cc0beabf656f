import type { SalaryPeriod, SalaryRange } from './salary.types';

/**
 * Converts a salary range to a yearly figure so postings paid by the hour, day, week or month can
 * be compared with salaried ones and against the user's target. The defaults describe a
 * full-time, unpaid-leave-free year (40 h × 52 weeks = 2,080 hours), the convention US boards
 * use; callers with a different working pattern (e.g. 37.5 h, or 46 working weeks for a
 * contractor) pass their own. Amounts are rounded to whole currency units, which is all the
 * precision a yearly comparison needs.
 */
export interface AnnualizeOptions {
  hoursPerWeek?: number;
  weeksPerYear?: number;
  daysPerWeek?: number;
}

export const DEFAULT_ANNUALIZE_OPTIONS: Required<AnnualizeOptions> = { hoursPerWeek: 40, weeksPerYear: 52, daysPerWeek: 5 };

export function annualize(range: SalaryRange, options: AnnualizeOptions = {}): SalaryRange {
  const { hoursPerWeek, weeksPerYear, daysPerWeek } = { ...DEFAULT_ANNUALIZE_OPTIONS, ...options };
  requireInRange('hoursPerWeek', hoursPerWeek, 168);
  requireInRange('weeksPerYear', weeksPerYear, 53);
  requireInRange('daysPerWeek', daysPerWeek, 7);

  const factor: Record<SalaryPeriod, number> = {
    hour: hoursPerWeek * weeksPerYear,
    day: daysPerWeek * weeksPerYear,
    week: weeksPerYear,
    month: 12,
    year: 1,
  };
  const multiplier = factor[range.period];
  if (multiplier === undefined) throw new RangeError(`annualize: unknown period "${String(range.period)}"`);
  return { ...range, min: Math.round(range.min * multiplier), max: Math.round(range.max * multiplier), period: 'year' };
}

function requireInRange(name: string, value: number, max: number): void {
  if (!Number.isFinite(value) || value <= 0 || value > max) {
    throw new RangeError(`annualize: ${name} must be a number in (0, ${max}], got ${String(value)}`);
  }
}
