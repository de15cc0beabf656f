import type { CompensationDetermination, CompensationResult, UndecidedCompensation } from './compensation.types';
import type { CompensationSummary } from './compensation.summary';
import type { PublishedRow } from './compensation-refresh.repository';

/**
 * What a view shows of a determination, in the order the API prints it. Derived from
 * CompensationDetermination (each field null where there is no reading), so the view cannot drift
 * from what the parser and the model produce.
 */
const READING_KEYS = ['kind', 'currency', 'interval', 'min', 'max', 'minYearly', 'maxYearly', 'confidence', 'method'] as const satisfies ReadonlyArray<keyof CompensationDetermination>;
type Reading = { [K in (typeof READING_KEYS)[number]]: CompensationDetermination[K] | null };

/** One row of a job's compensation as the API shows it: where it came from and what it says. */
export interface CompensationRowView extends Pick<PublishedRow, 'sourceId' | 'externalJobId' | 'fieldPath' | 'text'>, Reading {
  /** false: neither the parser nor a model could read it (see `reason`), or its determination failed (`error`). */
  decided: boolean;
  flags: CompensationDetermination['flags'];
  reason: UndecidedCompensation['reason'] | null;
  error: string | null;
}

/**
 * A job's `compensation` field. The figures are the summary row's (base over OTE, a board's field
 * over description text). A job whose rows state no figure has `kind: "none"` when every row was
 * read and says so ("Competitive"), and `kind: null` — unknown, not "none" — when a row could not be
 * read or its determination failed.
 */
export interface CompensationView extends Reading {
  /** Which row the figures are from (its field path), null without figures. */
  field: CompensationSummary['field'];
  rows: CompensationRowView[];
}

export function compensationView(published: { summary: unknown; rows: unknown[] } | null): CompensationView | null {
  if (!published || published.rows.length === 0) return null;
  const rows = (published.rows as PublishedRow[]).map(rowView);
  const s = published.summary as CompensationSummary | null;
  if (s) {
    return { ...readingOf(s), field: s.field, rows };
  }
  const allNone = rows.every((r) => r.decided && r.kind === 'none');
  return { ...NO_FIGURES, kind: allNone ? 'none' : null, confidence: null, method: null, field: null, rows };
}

/** The figure fields of a reading that has none. */
const NO_FIGURES = { kind: null, currency: null, interval: null, min: null, max: null, minYearly: null, maxYearly: null } as const satisfies Partial<Reading>;

function rowView(row: PublishedRow): CompensationRowView {
  const r = row.result as CompensationResult | null;
  const base = { sourceId: row.sourceId, externalJobId: row.externalJobId, fieldPath: row.fieldPath, text: row.text, error: row.error ?? null };
  if (r?.decided) {
    return { ...base, decided: true, ...readingOf(r), flags: r.flags, reason: null };
  }
  return { ...base, ...NO_FIGURES, decided: false, confidence: r?.confidence ?? null, method: r?.method ?? null, flags: r?.flags ?? [], reason: r?.reason ?? null };
}

function readingOf(d: CompensationDetermination): Reading {
  return Object.fromEntries(READING_KEYS.map((k) => [k, d[k]])) as Reading;
}
