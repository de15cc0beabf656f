import type { PostingApiRef, PostingResponse } from '../availability.model';
import { apiLookupUrl, readApiAnswer } from './api-lookup';

const REFS: Record<string, PostingApiRef> = {
  greenhouse: { kind: 'greenhouse', baseUrl: 'https://boards-api.greenhouse.io/', board: 'acme', externalId: '4012345' },
  lever: { kind: 'lever', baseUrl: 'https://api.lever.co', board: 'globex', externalId: '7f1c2a9e-5b1d' },
  smartrecruiters: { kind: 'smartrecruiters', baseUrl: 'https://api.smartrecruiters.com', board: 'Umbrella Corp', externalId: '744000012' },
  ashby: { kind: 'ashby', baseUrl: 'https://api.ashbyhq.com', board: 'initech', externalId: '3b1f9c2e' },
  workable: { kind: 'workable', baseUrl: 'https://apply.workable.com', board: 'hooli', externalId: 'A1B2C3D4E5' },
};

function answer(status: number, body: unknown): PostingResponse {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { url: 'https://api.test/x', finalUrl: 'https://api.test/x', status, hops: [], contentType: 'application/json', body: text };
}

describe('apiLookupUrl', () => {
  it.each([
    ['greenhouse', 'https://boards-api.greenhouse.io/v1/boards/acme/jobs/4012345'],
    ['lever', 'https://api.lever.co/v0/postings/globex/7f1c2a9e-5b1d'],
    ['smartrecruiters', 'https://api.smartrecruiters.com/v1/companies/Umbrella%20Corp/postings/744000012'],
    ['ashby', 'https://api.ashbyhq.com/posting-api/job-board/initech'],
    ['workable', 'https://apply.workable.com/api/v1/widget/accounts/hooli'],
  ])('%s → %s', (kind, url) => {
    expect(apiLookupUrl(REFS[kind])).toBe(url);
  });

  it('has no URL for a provider without a posting API, or a ref missing its id', () => {
    expect(apiLookupUrl({ kind: 'remotive', baseUrl: 'https://remotive.com', board: 'x', externalId: '1' })).toBeNull();
    expect(apiLookupUrl({ ...REFS['greenhouse'], externalId: '' })).toBeNull();
  });
});

describe('readApiAnswer', () => {
  const listed: Record<string, unknown> = {
    greenhouse: { id: 4012345, title: 'Senior Backend Engineer', absolute_url: 'https://boards.greenhouse.io/acme/jobs/4012345' },
    lever: { id: '7f1c2a9e-5b1d', text: 'Platform Engineer', hostedUrl: 'https://jobs.lever.co/globex/7f1c2a9e-5b1d' },
    smartrecruiters: { id: '744000012', name: 'Field Service Technician', active: true },
    ashby: { apiVersion: '1', jobs: [{ id: 'other' }, { id: '3b1f9c2e', title: 'Data Scientist', isListed: false }] },
    workable: { name: 'Hooli', jobs: [{ shortcode: 'ZZZ' }, { shortcode: 'A1B2C3D4E5', title: 'Product Designer' }] },
  };
  const missing: Record<string, PostingResponse> = {
    greenhouse: answer(404, { status: 404, error: 'Job not found' }),
    lever: answer(404, { ok: false, error: 'Document not found' }),
    smartrecruiters: answer(404, { message: 'Not found' }),
    ashby: answer(200, { apiVersion: '1', jobs: [{ id: 'other' }] }),
    workable: answer(200, { name: 'Hooli', jobs: [{ shortcode: 'ZZZ' }] }),
  };

  it.each(Object.keys(REFS))('%s: the posting answered or listed → open (api_listed)', (kind) => {
    const reading = readApiAnswer(REFS[kind], answer(200, listed[kind]));
    expect(reading).toMatchObject({ decision: 'open', reason: null });
    expect(reading.evidence.map((e) => e.kind)).toEqual(['api_listed']);
  });

  // Unlisted/confidential postings are hidden from every one of these APIs: absence is not closure.
  it.each(Object.keys(REFS))('%s: the posting missing → continue to the page (api_missing_not_conclusive), never closed', (kind) => {
    const reading = readApiAnswer(REFS[kind], missing[kind]);
    expect({ decision: reading.decision, reason: reading.reason }).toEqual({ decision: 'continue', reason: 'api_missing_not_conclusive' });
    expect(reading.evidence.map((e) => e.kind)).toEqual(['api_missing']);
  });

  it('SmartRecruiters reporting the posting inactive → closed (api_inactive)', () => {
    expect(readApiAnswer(REFS['smartrecruiters'], answer(200, { id: '744000012', active: false }))).toMatchObject({ decision: 'closed', reason: 'api_inactive' });
  });

  it.each([
    ['a 5xx', answer(503, 'Service Unavailable'), 'api_http_503'],
    ['a 429', answer(429, '{}'), 'api_rate_limited'],
    ['a 403', answer(403, '<html>Forbidden</html>'), 'api_http_403'],
    ['HTML instead of JSON', answer(200, '<!doctype html><title>Oops</title>'), 'api_malformed'],
    ['a JSON array', answer(200, [1, 2]), 'api_malformed'],
    ['another posting', answer(200, { id: 999 }), 'api_malformed'],
  ])('greenhouse answering %s → continue to the page (%s), never closed', (_what, response, reason) => {
    const reading = readApiAnswer(REFS['greenhouse'], response);
    expect({ decision: reading.decision, reason: reading.reason }).toEqual({ decision: 'continue', reason });
    expect(reading.evidence).toHaveLength(1);
  });

  it('a list provider whose whole board answers 404 → continue (the board may be renamed), never closed', () => {
    expect(readApiAnswer(REFS['workable'], answer(404, { error: 'Not found' }))).toMatchObject({ decision: 'continue', reason: 'api_board_missing' });
  });

  it('a list answer without its jobs array → continue (api_malformed)', () => {
    expect(readApiAnswer(REFS['workable'], answer(200, { name: 'Hooli' }))).toMatchObject({ decision: 'continue', reason: 'api_malformed' });
  });
});
