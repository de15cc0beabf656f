import type { CompensationDetermination, CompensationResult, CompensationRowInput } from './compensation.types';

export interface DeterminedRow {
  row: CompensationRowInput;
  result: CompensationResult;
}

export interface CompensationSummary extends CompensationDetermination {
  /** Index of the chosen row in the input. */
  rowIndex: number;
  field: string | null;
}

const KIND_RANK: Readonly<Record<string, number>> = { base: 0, hourly: 0, ote: 1, bonus: 2, equity: 3 };

/**
 * A job's compensation chosen from its rows: base pay (or an hourly wage) over OTE over a bonus over
 * equity; then a board's structured field over the posting page's JSON-LD over text it printed, and
 * any text field over the description; then the more confident row; then the earlier one. Undecided rows and `none` rows
 * never become the summary; a job with nothing else has no compensation (null).
 */
export function summarizeCompensation(rows: DeterminedRow[]): CompensationSummary | null {
  let best: { index: number; key: number[] } | undefined;
  rows.forEach(({ row, result }, index) => {
    if (!result.decided || result.kind === 'none') return;
    // The board's API field, then the posting page's structured data (JSON-LD), then a text field,
    // then the description: the source of record first, prose last.
    const source = row.structured ? (row.field?.startsWith('jsonld.') ? 1 : 0) : row.field === 'description' || row.field === undefined ? 3 : 2;
    const key = [KIND_RANK[result.kind] ?? 9, source, -result.confidence, index];
    if (!best || compare(key, best.key) < 0) best = { index, key };
  });
  if (!best) return null;
  const chosen = rows[best.index];
  return { ...(chosen.result as CompensationDetermination), rowIndex: best.index, field: chosen.row.field ?? null };
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}
