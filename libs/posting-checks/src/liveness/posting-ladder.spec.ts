import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RequestTimeoutError, RobotsBlockedError, TooManyRedirectsError, NetworkError, ResponseTooLargeError, RequestAbortedError } from '@jobctrl/shared/http';
import type { PostingResponse, PostingTarget } from '../availability.model';
import { checkPostingAvailability, type PostingFetcher } from './posting-ladder';

const NOW = new Date('2025-06-15T12:00:00Z');
const PAGE = 'https://boards.greenhouse.io/acme/jobs/4012345';
const API = 'https://boards-api.greenhouse.io/v1/boards/acme/jobs/4012345';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');

type Answer = Partial<PostingResponse> | Error;

/** An in-memory fetcher: URL → response (or thrown error); records what was asked. */
class FakeFetcher implements PostingFetcher {
  readonly calls: string[] = [];
  render?: PostingFetcher['render'];

  constructor(private readonly answers: Record<string, Answer>, rendered?: Record<string, { html: string; finalUrl?: string } | Error>) {
    if (rendered) {
      this.render = async (url: string) => {
        this.calls.push(`render ${url}`);
        const r = rendered[url];
        if (!r) throw new Error(`no rendering for ${url}`);
        if (r instanceof Error) throw r;
        return { html: r.html, finalUrl: r.finalUrl ?? url };
      };
    }
  }

  async fetch(url: string, accept: 'json' | 'html'): Promise<PostingResponse> {
    this.calls.push(`${accept} ${url}`);
    const a = this.answers[url];
    if (!a) throw new Error(`unexpected fetch ${url}`);
    if (a instanceof Error) throw a;
    return { url, finalUrl: url, status: 200, hops: [], contentType: accept === 'json' ? 'application/json' : 'text/html', body: '', ...a };
  }
}

const withApi = (kind = 'greenhouse', externalId = '4012345'): PostingTarget => ({
  jobKey: 'job-1',
  url: PAGE,
  api: { kind, baseUrl: kind === 'greenhouse' ? 'https://boards-api.greenhouse.io' : 'https://api.lever.co', board: kind === 'greenhouse' ? 'acme' : 'globex', externalId },
});
const pageOnly: PostingTarget = { jobKey: 'job-1', url: PAGE, api: null };

describe('checkPostingAvailability', () => {
  it('API rung: a listed posting is still read on its page, and an explicit closure on the page wins over a stale listing', async () => {
    const listed = { body: JSON.stringify({ id: 4012345 }) };
    const open = new FakeFetcher({ [API]: listed, [PAGE]: { body: fixture('lever-open.en.html') } });
    expect(await checkPostingAvailability(withApi(), open, { now: NOW })).toMatchObject({ state: 'open', method: 'http', reason: null });
    expect(open.calls).toEqual([`json ${API}`, `html ${PAGE}`]);

    const closed = new FakeFetcher({ [API]: listed, [PAGE]: { status: 404, body: 'Not Found' } });
    const verdict = await checkPostingAvailability(withApi(), closed, { now: NOW });
    expect(verdict).toMatchObject({ state: 'closed', method: 'http', reason: 'http_status' });
    expect(verdict.evidence.map((e) => e.kind)).toEqual(['api_listed', 'http_status']);
  });

  it('API rung: a listing makes a page without apply control open (method api), but never outweighs a blocked or unreadable page', async () => {
    const listed = { body: JSON.stringify({ id: 4012345 }) };
    const cases: Array<[Answer, string, string | null, string]> = [
      [{ body: fixture('text-only.en.html') }, 'open', null, 'api'],
      [new RequestTimeoutError(PAGE, 20_000), 'unknown', 'timeout', 'http'],
      [{ body: fixture('captcha-text.html') }, 'blocked', 'captcha', 'http'],
      [{ status: 403, body: 'Forbidden' }, 'blocked', 'forbidden', 'http'],
      [{ body: fixture('ashby-shell.en.html') }, 'unknown', 'needs_javascript', 'http'],
    ];
    for (const [page, state, reason, method] of cases) {
      const verdict = await checkPostingAvailability(withApi(), new FakeFetcher({ [API]: listed, [PAGE]: page }), { now: NOW });
      expect({ state: verdict.state, reason: verdict.reason, method: verdict.method }).toEqual({ state, reason, method });
      expect(verdict.evidence.map((e) => e.kind)[0]).toBe('api_listed');
    }
  });

  it('API rung: Greenhouse no longer having the posting is evidence, not closure: the page decides', async () => {
    const missing = { status: 404, body: '{"status":404}' };
    const confidential = new FakeFetcher({ [API]: missing, [PAGE]: { body: fixture('greenhouse-open.en.html') } });
    expect(await checkPostingAvailability(withApi(), confidential, { now: NOW })).toMatchObject({ state: 'open', method: 'http' });
    const gone = new FakeFetcher({ [API]: missing, [PAGE]: { status: 404, body: 'Not Found' } });
    const verdict = await checkPostingAvailability(withApi(), gone, { now: NOW });
    expect(verdict).toMatchObject({ state: 'closed', method: 'http', reason: 'http_status' });
    expect(verdict.evidence[0]).toMatchObject({ kind: 'api_missing', url: API, status: 404 });
  });

  it('API rung: SmartRecruiters reporting the posting inactive closes it without the page', async () => {
    const srApi = 'https://api.smartrecruiters.com/v1/companies/Umbrella/postings/7';
    const fetcher = new FakeFetcher({ [srApi]: { body: JSON.stringify({ id: '7', active: false }) } });
    const target: PostingTarget = { jobKey: 'j', url: PAGE, api: { kind: 'smartrecruiters', baseUrl: 'https://api.smartrecruiters.com', board: 'Umbrella', externalId: '7' } };
    expect(await checkPostingAvailability(target, fetcher, { now: NOW })).toMatchObject({ state: 'closed', method: 'api', reason: 'api_inactive' });
    expect(fetcher.calls).toEqual([`json ${srApi}`]);
  });

  it('API rung: Lever missing the posting goes on to the page (unlisted postings stay open)', async () => {
    const leverApi = 'https://api.lever.co/v0/postings/globex/abc';
    const fetcher = new FakeFetcher({ [leverApi]: { status: 404, body: '{"ok":false}' }, [PAGE]: { body: fixture('lever-open.en.html') } });
    const verdict = await checkPostingAvailability(withApi('lever', 'abc'), fetcher, { now: NOW });
    expect(verdict).toMatchObject({ state: 'open', method: 'http' });
    expect(verdict.evidence.map((e) => e.kind)).toEqual(['api_missing', 'apply_control']);
  });

  it('API failure (5xx, thrown timeout) keeps its evidence and the page decides', async () => {
    for (const api of [{ status: 502, body: 'Bad Gateway' }, new RequestTimeoutError(API, 20_000)] as Answer[]) {
      const fetcher = new FakeFetcher({ [API]: api, [PAGE]: { status: 404, body: 'Not Found' } });
      const verdict = await checkPostingAvailability(withApi(), fetcher, { now: NOW });
      expect(verdict).toMatchObject({ state: 'closed', method: 'http', reason: 'http_status' });
      expect(verdict.evidence.map((e) => e.kind)).toEqual(['api_error', 'http_status']);
    }
  });

  it('HTTP rung: each closure kind of the page is closed with its evidence', async () => {
    const cases: Array<[Answer, string]> = [
      [{ status: 410, body: 'Gone' }, 'http_status'],
      [{ finalUrl: 'https://boards.greenhouse.io/acme?error=true', hops: [{ url: PAGE, status: 302 }], body: fixture('greenhouse-closed.en.html') }, 'redirect_to_index'],
      [{ body: fixture('workable-closed.en.html') }, 'closed_text'],
      [{ body: fixture('expired-no-apply.en.html') }, 'valid_through_past'],
      [{ body: fixture('apply-disabled.en.html') }, 'apply_disabled'],
    ];
    for (const [page, reason] of cases) {
      const verdict = await checkPostingAvailability(pageOnly, new FakeFetcher({ [PAGE]: page }), { now: NOW });
      expect({ state: verdict.state, reason: verdict.reason, method: verdict.method }).toEqual({ state: 'closed', reason, method: 'http' });
      expect(verdict.evidence.map((e) => e.kind)).toContain(reason);
    }
  });

  it.each([
    ['robots.txt disallows the page', new RobotsBlockedError(PAGE, 'disallowed'), 'blocked', 'robots'],
    ['robots.txt is unreachable', new RobotsBlockedError(PAGE, 'unreachable'), 'unknown', 'robots_unreachable'],
    ['a redirect loop', new TooManyRedirectsError(PAGE, 4), 'unknown', 'too_many_redirects'],
    ['a timeout', new RequestTimeoutError(PAGE, 20_000), 'unknown', 'timeout'],
    ['a refused connection', new NetworkError(PAGE, new Error('ECONNREFUSED')), 'unknown', 'network'],
    ['a page over the size cap', new ResponseTooLargeError(PAGE, 1_000_000), 'unknown', 'response_too_large'],
    ['the per-check request limit', Object.assign(new Error('12 requests used'), { code: 'check_limit', limit: 'requests' }), 'unknown', 'request_limit'],
    ['the per-check byte limit', Object.assign(new Error('12 MB used'), { code: 'check_limit', limit: 'bytes_per_check' }), 'unknown', 'bytes_per_check_limit'],
    ['a 429 thrown after retries', Object.assign(new Error('429'), { code: 'http_status', status: 429 }), 'blocked', 'rate_limited'],
    ['an unexpected error', new Error('boom'), 'unknown', 'fetch_failed'],
  ])('HTTP rung: %s → %s (%s), never closed', async (_what, error, state, reason) => {
    const verdict = await checkPostingAvailability(pageOnly, new FakeFetcher({ [PAGE]: error }), { now: NOW });
    expect({ state: verdict.state, reason: verdict.reason, method: verdict.method }).toEqual({ state, reason, method: 'http' });
    expect(verdict.evidence).toHaveLength(1);
  });

  it('HTTP rung: a captcha page is blocked, and nothing is rendered', async () => {
    const fetcher = new FakeFetcher({ [PAGE]: { status: 200, body: fixture('captcha-cloudflare.html') } }, {});
    expect(await checkPostingAvailability(pageOnly, fetcher, { now: NOW })).toMatchObject({ state: 'blocked', reason: 'captcha', method: 'http' });
    expect(fetcher.calls).toEqual([`html ${PAGE}`]);
  });

  it('browser rung: a shell is rendered and the rendered page decides (open / JavaScript-only closed banner)', async () => {
    const shell = { body: fixture('ashby-shell.en.html') };
    const open = new FakeFetcher({ [PAGE]: shell }, { [PAGE]: { html: fixture('ashby-rendered-open.en.html') } });
    const openVerdict = await checkPostingAvailability(pageOnly, open, { now: NOW });
    expect(openVerdict).toMatchObject({ state: 'open', method: 'browser', reason: null });
    expect(openVerdict.evidence.map((e) => e.kind)).toEqual(['needs_javascript', 'apply_control']);
    expect(open.calls).toEqual([`html ${PAGE}`, `render ${PAGE}`]);

    const closed = new FakeFetcher({ [PAGE]: shell }, { [PAGE]: { html: fixture('ashby-rendered-closed.en.html') } });
    expect(await checkPostingAvailability(pageOnly, closed, { now: NOW })).toMatchObject({ state: 'closed', method: 'browser', reason: 'closed_text' });
  });

  it('browser rung: a single-page app routing to its job list is a redirect to the index', async () => {
    const fetcher = new FakeFetcher(
      { [PAGE]: { body: fixture('ashby-shell.en.html') } },
      { [PAGE]: { html: fixture('ashby-rendered-open.en.html'), finalUrl: 'https://boards.greenhouse.io/acme' } },
    );
    expect(await checkPostingAvailability(pageOnly, fetcher, { now: NOW })).toMatchObject({ state: 'closed', method: 'browser', reason: 'redirect_to_index' });
  });

  it('browser rung: a page still empty after rendering, or a render failure, is unknown', async () => {
    const empty = new FakeFetcher({ [PAGE]: { body: fixture('ashby-shell.en.html') } }, { [PAGE]: { html: fixture('ashby-shell.en.html') } });
    expect(await checkPostingAvailability(pageOnly, empty, { now: NOW })).toMatchObject({ state: 'unknown', method: 'browser', reason: 'empty_after_render' });
    const failing = new FakeFetcher({ [PAGE]: { body: fixture('ashby-shell.en.html') } }, { [PAGE]: Object.assign(new Error('64 resources'), { code: 'check_limit', limit: 'browser_resources' }) });
    expect(await checkPostingAvailability(pageOnly, failing, { now: NOW })).toMatchObject({ state: 'unknown', method: 'browser', reason: 'browser_resources_limit' });
  });

  it('without a renderer a shell stays unknown (needs_javascript) from the HTTP rung', async () => {
    const fetcher = new FakeFetcher({ [PAGE]: { body: fixture('ashby-shell.en.html') } });
    expect(await checkPostingAvailability(pageOnly, fetcher, { now: NOW })).toMatchObject({ state: 'unknown', method: 'http', reason: 'needs_javascript' });
  });

  it('cancellation and local refusals are rethrown, not read as evidence', async () => {
    const aborted = new FakeFetcher({ [PAGE]: new RequestAbortedError(PAGE) });
    await expect(checkPostingAvailability(pageOnly, aborted, { now: NOW })).rejects.toMatchObject({ name: 'AbortError' });

    const refusal = Object.assign(new Error('hourly budget spent'), { code: 'budget_exhausted', local: true });
    await expect(checkPostingAvailability(withApi(), new FakeFetcher({ [API]: refusal }), { now: NOW })).rejects.toBe(refusal);

    const controller = new AbortController();
    const fetcher = new FakeFetcher({ [API]: { status: 503, body: '' }, [PAGE]: { body: fixture('lever-open.en.html') } });
    const original = fetcher.fetch.bind(fetcher);
    fetcher.fetch = async (url, accept) => {
      const r = await original(url, accept);
      controller.abort();
      return r;
    };
    await expect(checkPostingAvailability(withApi(), fetcher, { now: NOW, signal: controller.signal })).rejects.toThrow();
    expect(fetcher.calls).toEqual([`json ${API}`]);
  });
});
