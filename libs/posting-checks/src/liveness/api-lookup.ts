import type { AvailabilityEvidence, PostingApiRef, PostingResponse } from '../availability.model';

/**
 * The ATS API rung: ask the board's own public API about one posting and read its answer.
 *
 * URL shapes agree with discovery's adapters (libs/discovery/src/adapters/*.adapter.ts, which a
 * domain lib may not import): Greenhouse, Lever and SmartRecruiters answer for one posting; Ashby
 * and Workable only publish the whole board, so the posting is looked up by id in the list
 * (Workable's id is the job's shortcode).
 *
 * What absence means: no public posting API this rung reads is known to list every posting
 * that still takes applications, so a missing posting is evidence kept (`api_missing`), never
 * closure by itself — the page decides (a closed posting's page answers 404/410, redirects to the
 * index or says so):
 *  - Lever returns only `published` postings ("all other jobs are completely hidden from the jobs
 *    API", lever/postings-api README); one switched to unlisted or internal still takes
 *    applications by link.
 *  - Ashby's board list carries unlisted jobs only as the board chooses (`isListed`) and hides
 *    confidential ones.
 *  - Greenhouse job posts and SmartRecruiters postings (`visibility` PUBLIC/INTERNAL/PRIVATE)
 *    can be live by link only; their public endpoints answer 404 for those exactly as for a closed
 *    posting. Workable lists only what the careers page shows.
 * The board simulator's `confidential` mode (tools/fixtures) models this: dropped from every list,
 * 404 from Greenhouse/SmartRecruiters, the page live — and must stay `open`.
 * `absenceIsClosure` stays in the table for a provider that does guarantee a complete list.
 * What the API does decide: listed → `open`; SmartRecruiters' own `active: false` → `closed`.
 * Any other failure (5xx, 429, 403, a body that is not the expected JSON) says nothing about the
 * posting: the ladder goes on to the page, keeping the evidence.
 */

export type ApiDecision = 'open' | 'closed' | 'continue';

export interface ApiReading {
  decision: ApiDecision;
  evidence: AvailabilityEvidence[];
  /** Why the API could not decide (continue), or the evidence kind that decided. */
  reason: string | null;
}

interface ProviderRule {
  /** The URL that answers for the posting (single posting or the board's list). */
  url(base: string, board: string, id: string): string;
  /** Whether the answer is a list the posting is looked up in. */
  list: boolean;
  /** Whether the API lists every open public posting, so that absence is closure. */
  absenceIsClosure: boolean;
  /** The list of postings in a list answer. */
  items?(body: Record<string, unknown>): unknown[] | null;
  /** The posting's id field in the answer. */
  idField: string;
}

const PROVIDERS: Readonly<Record<string, ProviderRule>> = {
  greenhouse: { url: (b, board, id) => `${b}/v1/boards/${board}/jobs/${id}`, list: false, absenceIsClosure: false, idField: 'id' },
  lever: { url: (b, board, id) => `${b}/v0/postings/${board}/${id}`, list: false, absenceIsClosure: false, idField: 'id' },
  smartrecruiters: { url: (b, board, id) => `${b}/v1/companies/${board}/postings/${id}`, list: false, absenceIsClosure: false, idField: 'id' },
  ashby: {
    url: (b, board) => `${b}/posting-api/job-board/${board}`,
    list: true,
    absenceIsClosure: false,
    items: (body) => (Array.isArray(body['jobs']) ? body['jobs'] : null),
    idField: 'id',
  },
  workable: {
    url: (b, board) => `${b}/api/v1/widget/accounts/${board}`,
    list: true,
    absenceIsClosure: false,
    items: (body) => (Array.isArray(body['jobs']) ? body['jobs'] : null),
    idField: 'shortcode',
  },
};

/** The URL to ask, or null when the provider has no posting API this rung knows. */
export function apiLookupUrl(ref: PostingApiRef): string | null {
  const rule = PROVIDERS[ref.kind];
  if (!rule || !ref.baseUrl || !ref.board || !ref.externalId) return null;
  const base = ref.baseUrl.replace(/\/+$/, '');
  return rule.url(base, encodeURIComponent(ref.board), encodeURIComponent(ref.externalId));
}

/** Reads the API's answer about the posting. */
export function readApiAnswer(ref: PostingApiRef, response: PostingResponse): ApiReading {
  const rule = PROVIDERS[ref.kind];
  const url = response.finalUrl || response.url;
  const evidence: AvailabilityEvidence[] = [];
  const add = (kind: string, detail: string): void => {
    evidence.push({ kind, detail, url, status: response.status });
  };
  const cont = (kind: string, detail: string, reason: string): ApiReading => {
    add(kind, detail);
    return { decision: 'continue', evidence, reason };
  };
  if (!rule) return cont('api_unsupported', `no posting API rule for ${ref.kind}`, 'api_unsupported');

  const status = response.status;
  if (status === 404 || status === 410) {
    if (rule.list) {
      // The whole board is gone (or was renamed): not an answer about this posting.
      return cont('api_error', `the ${ref.kind} board "${ref.board}" answered ${status}`, 'api_board_missing');
    }
    if (rule.absenceIsClosure) {
      add('api_missing', `${ref.kind} answered ${status} for posting ${ref.externalId}; its API lists every open public posting`);
      return { decision: 'closed', evidence, reason: 'api_missing' };
    }
    return cont('api_missing', `${ref.kind} answered ${status} for posting ${ref.externalId}; its API hides unlisted postings, so the page decides`, 'api_missing_not_conclusive');
  }
  if (status < 200 || status >= 300) {
    return cont('api_error', `${ref.kind} API answered ${status}`, status === 429 ? 'api_rate_limited' : `api_http_${status}`);
  }

  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return cont('api_error', `${ref.kind} API answered ${status} with a body that is not JSON`, 'api_malformed');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return cont('api_error', `${ref.kind} API answered ${status} with JSON that is not an object`, 'api_malformed');
  }
  const record = body as Record<string, unknown>;

  if (!rule.list) {
    if (!sameId(record[rule.idField], ref.externalId)) {
      return cont('api_error', `${ref.kind} API answered for another posting (${String(record[rule.idField]).slice(0, 60)})`, 'api_malformed');
    }
    // SmartRecruiters' posting detail carries `active`; a posting it reports inactive is closed.
    if (record['active'] === false) {
      add('api_inactive', `${ref.kind} reports posting ${ref.externalId} as inactive`);
      return { decision: 'closed', evidence, reason: 'api_inactive' };
    }
    add('api_listed', `${ref.kind} API answers for posting ${ref.externalId}`);
    return { decision: 'open', evidence, reason: null };
  }

  const items = rule.items?.(record) ?? null;
  if (!items) return cont('api_error', `${ref.kind} API answered without a jobs list`, 'api_malformed');
  const found = items.some((item) => item !== null && typeof item === 'object' && sameId((item as Record<string, unknown>)[rule.idField], ref.externalId));
  if (found) {
    add('api_listed', `${ref.kind} board "${ref.board}" lists posting ${ref.externalId}`);
    return { decision: 'open', evidence, reason: null };
  }
  if (rule.absenceIsClosure) {
    add('api_missing', `${ref.kind} board "${ref.board}" (${items.length} postings) no longer lists posting ${ref.externalId}; its API lists every open public posting`);
    return { decision: 'closed', evidence, reason: 'api_missing' };
  }
  return cont(
    'api_missing',
    `${ref.kind} board "${ref.board}" (${items.length} postings) does not list posting ${ref.externalId}; unlisted postings are hidden there, so the page decides`,
    'api_missing_not_conclusive',
  );
}

function sameId(value: unknown, id: string): boolean {
  if (typeof value === 'number') return Number.isFinite(value) && String(value) === id.trim();
  return typeof value === 'string' && value.trim().toLowerCase() === id.trim().toLowerCase();
}
