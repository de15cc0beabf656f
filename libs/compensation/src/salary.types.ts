export type SalaryPeriod = 'hour' | 'day' | 'week' | 'month' | 'year';

/**
 * How the published figures bound the pay: a real range, one exact figure, or an open-ended
 * "up to X" / "from X". Open-ended amounts still fill both `min` and `max` with the published
 * figure so that every consumer can rely on two numbers; `bound` says which side is not real.
 */
export type SalaryBound = 'range' | 'exact' | 'up_to' | 'from';

export interface SalaryRange {
  /** ISO 4217 code, e.g. "USD". */
  currency: string;
  min: number;
  max: number;
  period: SalaryPeriod;
  /** The text the range was read from, for display and audit. */
  raw: string;
  /** Set by the parser; absent means a plain range. */
  bound?: SalaryBound;
  /** True when the period was not stated and was guessed from the amount's magnitude. */
  periodInferred?: boolean;
  /** The text gave the larger figure first ("$150k - $120k"); min and max were put in order. */
  swapped?: boolean;
}
