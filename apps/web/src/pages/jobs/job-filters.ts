// The Jobs page's filters: kept in the address bar (a filtered list can be bookmarked, and Back
// restores it) and turned into GET /v1/jobs's query. Values stay strings as the form holds them;
// only well-formed ones are sent, and a malformed one is reported beside its field instead.
import type { QueryOf, Schemas } from '../../api/client';

type JobQuery = QueryOf<'/v1/jobs', 'get'>;
export type Stage = Schemas['JobView']['stage'];
export type AvailabilityFilter = NonNullable<JobQuery['availability']>;
export type JobSort = NonNullable<JobQuery['sort']>;

/** Every value of a generated union, listed once for the selects; the compiler proves the list complete. */
function allOf<T extends string>() {
  return <L extends readonly T[]>(list: L & ([Exclude<T, L[number]>] extends [never] ? unknown : { missing: Exclude<T, L[number]> })) => list;
}

export const STAGES = allOf<Stage>()(['pending_enrichment', 'pending_score', 'scored', 'pending_tailor', 'pending_cover', 'prepared', 'cover_rejected'] as const);
export const AVAILABILITIES = allOf<AvailabilityFilter>()(['open', 'closed', 'unknown', 'blocked', 'unchecked'] as const);
export const SORTS = allOf<JobSort>()(['newest', 'score', 'salary'] as const);
export const PAGE_SIZE = 25;

export interface JobFilters {
  stage: Stage | '';
  minScore: string;
  company: string;
  q: string;
  minSalary: string;
  currency: string;
  includeUnknownSalary: boolean;
  availability: AvailabilityFilter | '';
  sort: JobSort;
  /** 0-based. */
  page: number;
}

export const EMPTY_FILTERS: JobFilters = {
  stage: '',
  minScore: '',
  company: '',
  q: '',
  minSalary: '',
  currency: '',
  includeUnknownSalary: false,
  availability: '',
  sort: 'newest',
  page: 0,
};

const oneOf = <T extends string>(list: readonly T[], v: string | null): T | '' => (v !== null && (list as readonly string[]).includes(v) ? (v as T) : '');

/** The address bar's `?stage=…&page=2` → filters (unknown values are dropped, not trusted). */
export function filtersFromSearch(search: URLSearchParams): JobFilters {
  const page = Number(search.get('page') ?? '1');
  return {
    stage: oneOf(STAGES, search.get('stage')),
    minScore: search.get('minScore') ?? '',
    company: search.get('company') ?? '',
    q: search.get('q') ?? '',
    minSalary: search.get('minSalary') ?? '',
    currency: search.get('currency') ?? '',
    includeUnknownSalary: search.get('includeUnknownSalary') === 'true',
    availability: oneOf(AVAILABILITIES, search.get('availability')),
    sort: oneOf(SORTS, search.get('sort')) || 'newest',
    page: Number.isInteger(page) && page >= 1 ? page - 1 : 0,
  };
}

/** Filters → the address bar, defaults left out so a plain list has a plain URL (page is 1-based there). */
export function filtersToSearch(f: JobFilters): URLSearchParams {
  const s = new URLSearchParams();
  const set = (k: string, v: string) => v.trim() !== '' && s.set(k, v.trim());
  set('stage', f.stage);
  set('minScore', f.minScore);
  set('company', f.company);
  set('q', f.q);
  set('minSalary', f.minSalary);
  set('currency', f.currency);
  if (f.includeUnknownSalary) s.set('includeUnknownSalary', 'true');
  set('availability', f.availability);
  if (f.sort !== 'newest') s.set('sort', f.sort);
  if (f.page > 0) s.set('page', String(f.page + 1));
  return s;
}

export type FilterErrors = Partial<Record<'minScore' | 'minSalary' | 'currency', string>>;

/**
 * Filters → GET /v1/jobs's query, and the fields that cannot be sent as typed (left out of the
 * query, so the list still loads, and named beside their field). Salary options go only with a
 * minimum salary: a currency alone filters nothing on the API.
 */
export function filtersToQuery(f: JobFilters, pageSize = PAGE_SIZE): { query: JobQuery; errors: FilterErrors } {
  const errors: FilterErrors = {};
  const query: JobQuery = { limit: pageSize, offset: f.page * pageSize, sort: f.sort };
  if (f.stage) query.stage = f.stage;
  if (f.availability) query.availability = f.availability;
  if (f.company.trim()) query.company = f.company.trim();
  if (f.q.trim()) query.q = f.q.trim();
  if (f.minScore.trim()) {
    const n = Number(f.minScore);
    if (Number.isInteger(n) && n >= 0 && n <= 100) query.minScore = n;
    else errors.minScore = 'a whole number from 0 to 100';
  }
  if (f.minSalary.trim()) {
    const n = Number(f.minSalary.replace(/[\s,_]/g, ''));
    if (Number.isFinite(n) && n >= 0) query.minSalary = n;
    else errors.minSalary = 'a yearly amount, e.g. 120000';
  }
  const currency = f.currency.trim().toUpperCase();
  if (currency && !/^[A-Z]{3}$/.test(currency)) errors.currency = 'a 3-letter code, e.g. USD';
  if (query.minSalary !== undefined) {
    if (currency && !errors.currency) query.currency = currency;
    if (f.includeUnknownSalary) query.includeUnknownSalary = true;
  }
  return { query, errors };
}

/** Any filter changed → back to the first page (page N of the old list means nothing in the new one). */
export function withFilter<K extends keyof JobFilters>(f: JobFilters, key: K, value: JobFilters[K]): JobFilters {
  return { ...f, [key]: value, page: key === 'page' ? (value as number) : 0 };
}
