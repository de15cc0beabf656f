import type { ProfileExperience } from './profile.model';

/**
 * Reading the profile's resume-style dates. Profiles store `YYYY-MM` or `YYYY` as the user typed
 * them; `end: null` (or absent, or a word like "Present") means the role is ongoing.
 *
 * Dates are compared as month numbers m = year × 12 + (month − 1). A bare year reads as January when
 * it starts a period and as December when it ends one, so "2019–2021" spans all of both years: the
 * generous reading, because a check built on it must not reject a claim the user's own dates allow.
 * Nothing here reads the clock: an ongoing role has no end month unless the caller passes `asOf`.
 */

const ONGOING = /^(present|current|now|today|ongoing)$/i;

/** Month number of a profile date, or undefined when it is absent, ongoing or unreadable. */
export function profileMonth(date: string | null | undefined, edge: 'start' | 'end'): number | undefined {
  const text = (date ?? '').trim();
  const full = /^(\d{4})-(\d{1,2})$/.exec(text);
  if (full) {
    const month = Number(full[2]);
    if (month < 1 || month > 12) return undefined;
    return Number(full[1]) * 12 + month - 1;
  }
  const year = /^(\d{4})$/.exec(text);
  if (year) return Number(year[1]) * 12 + (edge === 'start' ? 0 : 11);
  return undefined;
}

/** True when an experience entry's end says "still there". */
export function isOngoing(end: string | null | undefined): boolean {
  const text = (end ?? '').trim();
  return text === '' || ONGOING.test(text);
}

/**
 * Indices of `experience` from most to least recent: ongoing roles first, then by end month
 * descending, then by start month descending; unreadable dates sort after readable ones, and equal
 * keys keep the profile's own order (the sort is stable), so the result is deterministic.
 */
export function experienceByRecency(experience: readonly ProfileExperience[]): number[] {
  const key = (entry: ProfileExperience): [number, number] => [
    isOngoing(entry.end) ? Number.POSITIVE_INFINITY : (profileMonth(entry.end, 'end') ?? Number.NEGATIVE_INFINITY),
    profileMonth(entry.start, 'start') ?? Number.NEGATIVE_INFINITY,
  ];
  return experience
    .map((entry, index) => ({ index, key: key(entry) }))
    .sort((a, b) => compareDesc(a.key[0], b.key[0]) || compareDesc(a.key[1], b.key[1]) || a.index - b.index)
    .map((item) => item.index);
}

/**
 * Months from the earliest readable start to the latest end across all experience entries (gaps
 * included: a career span, not a sum of roles). An ongoing role ends at `asOf` (a `YYYY-MM`/`YYYY`
 * date the caller supplies). Undefined when the span cannot be bounded: no readable start, or an
 * ongoing role without `asOf`.
 */
export function experienceSpanMonths(experience: readonly ProfileExperience[], asOf?: string): number | undefined {
  const starts = experience.map((e) => profileMonth(e.start, 'start')).filter((m): m is number => m !== undefined);
  if (starts.length === 0) return undefined;
  const asOfMonth = asOf === undefined ? undefined : profileMonth(asOf, 'end');
  let latest = Number.NEGATIVE_INFINITY;
  for (const entry of experience) {
    const end = isOngoing(entry.end) ? asOfMonth : profileMonth(entry.end, 'end');
    if (end === undefined) {
      if (isOngoing(entry.end)) return undefined;
      continue;
    }
    latest = Math.max(latest, end);
  }
  const earliest = Math.min(...starts);
  if (!Number.isFinite(latest)) return undefined;
  // An end month counts in full (Jan–Dec of one year is 12 months, not 11).
  return Math.max(0, latest - earliest + 1);
}

function compareDesc(a: number, b: number): number {
  if (a === b) return 0;
  return a > b ? -1 : 1;
}
