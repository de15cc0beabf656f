export type CompensationKind = 'base' | 'hourly' | 'ote' | 'bonus' | 'equity' | 'none';
export type CompensationInterval = 'year' | 'month' | 'week' | 'day' | 'hour';

/** A figure a board gives as data (JSON-LD, Lever salaryRange, Ashby components, …), already read. */
export interface StructuredCompensation {
  kind?: CompensationKind;
  currency?: string | null;
  interval?: CompensationInterval | null;
  min?: number | null;
  max?: number | null;
}

/**
 * One compensation statement of a posting: its text (the raw statement, or a rendering of the
 * structured value), where it came from (`field`, e.g. "lever.salaryRange" or "description"), the
 * posting's country when stated, and the structured value when the board gave one.
 */
export interface CompensationRowInput {
  text: string;
  field?: string;
  country?: string | null;
  structured?: StructuredCompensation;
}

/** The parser's reading of a row. Open-ended figures leave the other bound null ("up to $150k": min null). */
export interface CompensationDetermination {
  decided: true;
  kind: CompensationKind;
  currency: string | null;
  interval: CompensationInterval | null;
  min: number | null;
  max: number | null;
  minYearly: number | null;
  maxYearly: number | null;
  /** 0..1; below DECISION_THRESHOLD the parser does not decide and returns an UndecidedCompensation. */
  confidence: number;
  /** `parser`: the deterministic rules; `model`: a model's answer, checked against the text (compensation.model.ts). */
  method: 'parser' | 'model';
  /** What the parser repaired or assumed: swapped_min_max, interval_inferred, currency_from_country, … */
  flags: string[];
}

/** A row the parser cannot decide: a later model step may take it. */
export interface UndecidedCompensation {
  decided: false;
  method: 'parser' | 'model';
  confidence: number;
  /** Why: no_currency, ambiguous_interval, unreadable_figures, … */
  reason: string;
  flags: string[];
}

export type CompensationResult = CompensationDetermination | UndecidedCompensation;
