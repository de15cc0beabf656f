import type { Schemas } from '../../api/client';

type Compensation = Schemas['CompensationView'];

const money = (n: number, currency: string | null) => {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: currency ?? 'USD', maximumFractionDigits: 0, notation: n >= 10_000 ? 'compact' : 'standard' }).format(n);
  } catch {
    return `${currency ?? ''} ${Math.round(n)}`.trim(); // not an ISO code Intl knows
  }
};

/** "$120K–$150K / year (base)" from the yearly figures, else the stated ones with their interval; null without figures. */
export function formatCompensation(c: Compensation | null | undefined): string | null {
  if (!c) return null;
  const yearly = c.minYearly !== null || c.maxYearly !== null;
  const lo = yearly ? c.minYearly : c.min;
  const hi = yearly ? c.maxYearly : c.max;
  if (lo === null && hi === null) return null;
  const range = lo !== null && hi !== null && lo !== hi ? `${money(lo, c.currency)}–${money(hi, c.currency)}` : money((lo ?? hi) as number, c.currency);
  const per = yearly ? 'year' : (c.interval ?? null);
  const kind = c.kind && c.kind !== 'base' && c.kind !== 'none' ? ` (${c.kind})` : '';
  return `${range}${per ? ` / ${per}` : ''}${kind}`;
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export const stageLabel = (stage: string) => stage.replace(/_/g, ' ');

/** Badge colour of a posting's availability or an application state. */
export function tone(state: string | null | undefined): 'ok' | 'warn' | 'bad' | '' {
  switch (state) {
    case 'open':
    case 'prepared':
    case 'submitted':
    case 'dry_run_done':
    case 'passed':
      return 'ok';
    case 'closed':
    case 'failed':
    case 'cover_rejected':
    case 'errored':
      return 'bad';
    case 'unknown':
    case 'blocked':
    case 'needs_user_input':
    case 'needs_verification':
    case 'running':
    case 'not_run':
      return 'warn';
    default:
      return '';
  }
}
