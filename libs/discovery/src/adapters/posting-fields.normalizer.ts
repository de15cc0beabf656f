/** Field normalization shared by the adapters, so every source yields the same vocabulary. */

import type { CompensationStatement } from '@jobctrl/shared/jobs';

/**
 * A posting's compensation statements: each value the board gave, raw, under the field path naming
 * its shape (the compensation lib reads them; adapters do not interpret pay). Absent, null, blank
 * and empty values are no statement.
 */
export function compensationStatements(entries: ReadonlyArray<readonly [string, unknown]>): CompensationStatement[] {
  return entries.flatMap(([fieldPath, value]) =>
    value === undefined || value === null || (typeof value === 'string' && !value.trim()) || (Array.isArray(value) && value.length === 0)
      ? []
      : [{ fieldPath, value: typeof value === 'string' ? value.trim() : value }],
  );
}

/**
 * ISO 8601 (UTC) from a date string, or from a number in the given unit. A timestamp without a
 * zone ("2025-02-10T10:11:12", as Remotive writes them) is read as UTC rather than local time, so
 * results do not depend on the machine's time zone. Unparseable input gives null.
 */
export function toIsoDate(value: string | number | null | undefined, numberUnit: 'ms' | 's' = 'ms'): string | null {
  if (value === null || value === undefined || value === '') return null;
  let ms: number;
  if (typeof value === 'number') {
    ms = numberUnit === 's' ? value * 1000 : value;
  } else {
    const text = value.trim();
    if (/^\d+$/.test(text)) {
      ms = Number(text) * (numberUnit === 's' ? 1000 : 1);
    } else if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text)) {
      ms = Date.parse(`${text.replace(' ', 'T')}Z`);
    } else if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
      ms = Date.parse(`${text}T00:00:00Z`);
    } else {
      ms = Date.parse(text);
    }
  }
  if (!Number.isFinite(ms)) return null;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

const EMPLOYMENT_TYPES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(full ?time|fulltime|full_time|permanent|vollzeit|festanstellung|regular)$/, 'FULL_TIME'],
  [/^(part ?time|parttime|part_time|teilzeit)$/, 'PART_TIME'],
  [/^(contract|contractor|freelance|freelancer|freiberuflich|consultant)$/, 'CONTRACTOR'],
  [/^(intern|internship|praktikum|werkstudent|working student|trainee)$/, 'INTERN'],
  [/^(temporary|temp|befristet|seasonal|fixed term)$/, 'TEMPORARY'],
];

/**
 * schema.org employment type (FULL_TIME, …) for the spellings boards use ("Full-time",
 * "FullTime", "full_time", "Vollzeit"); anything unrecognised is returned trimmed, as published.
 */
export function normalizeEmploymentType(raw: string | null | undefined): string | null {
  if (!raw || !raw.trim()) return null;
  const key = raw
    .trim()
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[-_]+/g, ' ')
    .replace(/\s+/g, ' ');
  for (const [pattern, type] of EMPLOYMENT_TYPES) if (pattern.test(key) || pattern.test(key.replace(/ /g, ''))) return type;
  return raw.trim();
}

/** The first recognised type of a list (Arbeitnow mixes seniority and type: ["Berufserfahren", "Vollzeit"]). */
export function normalizeEmploymentTypes(list: readonly string[]): string | null {
  for (const item of list) {
    const type = normalizeEmploymentType(item);
    if (type && /^[A-Z_]+$/.test(type)) return type;
  }
  return list.length ? list.join(', ') : null;
}

export type SalaryPeriod = 'year' | 'month' | 'week' | 'day' | 'hour';

function group(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** "USD 120,000 - 150,000 per year" (a form the compensation parser reads); null without amounts. */
export function formatSalaryRange(min: number | null, max: number | null, currency: string | null, period: SalaryPeriod | null): string | null {
  const lo = min !== null && min > 0 ? min : null;
  const hi = max !== null && max > 0 ? max : null;
  if (lo === null && hi === null) return null;
  const cur = currency ? `${currency.toUpperCase()} ` : '';
  const per = period ? ` per ${period}` : '';
  if (lo !== null && hi !== null) return lo === hi ? `${cur}${group(lo)}${per}` : `${cur}${group(lo)} - ${group(hi)}${per}`;
  return lo !== null ? `from ${cur}${group(lo)}${per}` : `up to ${cur}${group(hi as number)}${per}`;
}

/** true when the text says "remote"; otherwise unknown (null) — a location rarely says "on-site". */
export function remoteFromText(text: string | null | undefined): true | null {
  return text && /\b(remote|telecommute|work from home|anywhere)\b/i.test(text) ? true : null;
}

/** "City, Region, Country" from parts, skipping blanks and repeats. */
export function joinLocation(parts: ReadonlyArray<string | null | undefined>): string | null {
  const out: string[] = [];
  for (const part of parts) {
    const trimmed = part?.trim();
    if (trimmed && !out.some((p) => p.toLowerCase() === trimmed.toLowerCase())) out.push(trimmed);
  }
  return out.length ? out.join(', ') : null;
}

/**
 * A posting's primary location and every location it lists (primary first, each once), for the
 * posting's `location` and `locations`: boards list more than one place (Lever allLocations, Ashby
 * secondaryLocations, Greenhouse offices) and a location preference must see all of them.
 */
export function postingLocations(primary: string | null, more: ReadonlyArray<string | null | undefined>): { location: string | null; locations: string[] } {
  const locations = cleanTags([primary, ...more]);
  return { location: locations[0] ?? null, locations };
}

/** Trimmed, blank-free, case-insensitively unique, in first-seen order. */
export function cleanTags(tags: ReadonlyArray<string | null | undefined>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const tag of tags) {
    const trimmed = tag?.trim();
    if (!trimmed || seen.has(trimmed.toLowerCase())) continue;
    seen.add(trimmed.toLowerCase());
    out.push(trimmed);
  }
  return out;
}

/** A config token as one URL path segment (tokens are validated, but encode anyway: defence in depth). */
export function segment(value: string): string {
  return encodeURIComponent(value);
}
