import type { CompensationInterval, CompensationKind, CompensationResult } from './compensation.types';
import type { CompensationSummary } from './compensation.summary';
import type { PublishedRow } from './compensation-refresh.repository';

/** One row of a job's compensation as the API shows it: where it came from and what it says. */
export interface CompensationRowView {
  sourceId: string;
  externalJobId: string;
  fieldPath: string;
  text: string;
  /** false: neither the parser nor a model could read it (see `reason`), or its determination failed (`error`). */
  decided: boolean;
  kind: CompensationKind | null;
  currency: string | null;
  interval: CompensationInterval | null;
  min: number | null;
  max: number | null;
  minYearly: number | null;
  maxYearly: number | null;
  confidence: number | null;
  method: 'parser' | 'model' | null;
  flags: string[];
  reason: string | null;
  error: string | null;
}

/**
 * A job's `compensation` field. The figures are the summary row's (base over OTE, a board's field
 * over description text). A job whose rows state no figure has `kind: "none"` when every row was
 * read and says so ("Competitive"), and `kind: null` — unknown, not "none" — when a row could not be
 * read or its determination failed.
 */
export interface CompensationView {
  kind: CompensationKind | null;
  currency: string | null;
  interval: CompensationInterval | null;
  min: number | null;
  max: number | null;
  minYearly: number | null;
  maxYearly: number | null;
  confidence: number | null;
  method: 'parser' | 'model' | null;
  /** Which row the figures are from (its field path), null without figures. */
  field: string | null;
  rows: CompensationRowView[];
}

export function compensationView(published: { summary: unknown; rows: unknown[] } | null): CompensationView | null {
  if (!published || published.rows.length === 0) return null;
  const rows = (published.rows as PublishedRow[]).map(rowView);
  const s = published.summary as CompensationSummary | null;
  if (s) {
    return { kind: s.kind, currency: s.currency, interval: s.interval, min: s.min, max: s.max, minYearly: s.minYearly, maxYearly: s.maxYearly, confidence: s.confidence, method: s.method, field: s.field, rows };
  }
  const allNone = rows.every((r) => r.decided && r.kind === 'none');
  return { ...NO_FIGURES, kind: allNone ? 'none' : null, confidence: null, method: null, field: null, rows };
}

/** The figure fields of a reading that has none. */
const NO_FIGURES = { kind: null, currency: null, interval: null, min: null, max: null, minYearly: null, maxYearly: null } as const;

function rowView(row: PublishedRow): CompensationRowView {
  const r = row.result as CompensationResult | null;
  const base = { sourceId: row.sourceId, externalJobId: row.externalJobId, fieldPath: row.fieldPath, text: row.text, error: row.error ?? null };
  if (r?.decided) {
    return { ...base, decided: true, kind: r.kind, currency: r.currency, interval: r.interval, min: r.min, max: r.max, minYearly: r.minYearly, maxYearly: r.maxYearly, confidence: r.confidence, method: r.method, flags: r.flags, reason: null };
  }
  return { ...base, ...NO_FIGURES, decided: false, confidence: r?.confidence ?? null, method: r?.method ?? null, flags: r?.flags ?? [], reason: r?.reason ?? null };
}
