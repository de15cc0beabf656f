import { determineCompensation, type CompensationResult } from '@jobctrl/compensation';

/**
 * Scores the parser's determination against a labelled corpus (one JSON object a line:
 * `{"text", "expect": {"kind", "currency", "interval", "min", "max"}, "country"?, "field"?, "source"?}`).
 * A row is exact when all five fields match; an undecided row (the parser would hand it to a model)
 * matches nothing, so `accuracy` is what the parser alone would publish. Amounts match to the cent.
 */
export const BENCH_FIELDS = ['kind', 'currency', 'interval', 'min', 'max'] as const;
export type BenchField = (typeof BENCH_FIELDS)[number];

export interface CorpusRow {
  text: string;
  expect: Record<BenchField, string | number | null>;
  country?: string | null;
  field?: string;
  source?: string;
}

export interface BenchFailure {
  line: number;
  text: string;
  expected: CorpusRow['expect'];
  got: Record<BenchField, string | number | null> | { undecided: string };
}

export interface BenchResult {
  rows: number;
  exact: number;
  accuracy: number;
  fields: Record<BenchField, number>;
  undecided: number;
  failures: BenchFailure[];
}

/** Parses a JSONL corpus; a malformed line is an error naming its line number. */
export function parseCorpus(jsonl: string): Array<{ line: number; row: CorpusRow }> {
  const rows: Array<{ line: number; row: CorpusRow }> = [];
  jsonl.split('\n').forEach((raw, index) => {
    if (!raw.trim()) return;
    let row: CorpusRow;
    try {
      row = JSON.parse(raw) as CorpusRow;
    } catch (err) {
      throw new Error(`corpus line ${index + 1}: ${(err as Error).message}`);
    }
    if (typeof row.text !== 'string' || typeof row.expect !== 'object' || row.expect === null) {
      throw new Error(`corpus line ${index + 1}: needs "text" (string) and "expect" (object)`);
    }
    rows.push({ line: index + 1, row });
  });
  return rows;
}

export function scoreCorpus(rows: Array<{ line: number; row: CorpusRow }>): BenchResult {
  const correct: Record<BenchField, number> = { kind: 0, currency: 0, interval: 0, min: 0, max: 0 };
  const failures: BenchFailure[] = [];
  let exact = 0;
  let undecided = 0;
  for (const { line, row } of rows) {
    const result = determineCompensation({ text: row.text, country: row.country ?? null, field: row.field });
    if (!result.decided) undecided += 1;
    const got = published(result);
    let all = true;
    for (const field of BENCH_FIELDS) {
      const ok = got !== null && same(got[field], row.expect[field] ?? null);
      if (ok) correct[field] += 1;
      else all = false;
    }
    if (all) exact += 1;
    else failures.push({ line, text: row.text, expected: row.expect, got: got ?? { undecided: result.decided ? '' : result.reason } });
  }
  const share = (n: number) => (rows.length === 0 ? 0 : Math.round((n / rows.length) * 10_000) / 10_000);
  return {
    rows: rows.length,
    exact,
    accuracy: share(exact),
    fields: { kind: share(correct.kind), currency: share(correct.currency), interval: share(correct.interval), min: share(correct.min), max: share(correct.max) },
    undecided,
    failures,
  };
}

function published(result: CompensationResult): Record<BenchField, string | number | null> | null {
  if (!result.decided) return null;
  return { kind: result.kind, currency: result.currency, interval: result.interval, min: result.min, max: result.max };
}

function same(got: string | number | null, want: string | number | null): boolean {
  if (got === null || want === null) return got === want;
  if (typeof got === 'number' && typeof want === 'number') return Math.abs(got - want) < 0.005;
  return String(got).toUpperCase() === String(want).toUpperCase();
}
