import { GREENHOUSE_DEFAULT_BASE_URL, GreenhouseAdapter } from './greenhouse.adapter';
import { type HttpClient, MalformedResponseError, SourceConfigError } from './source-adapter.model';
import { collect, useBoardSimulator } from './testing/board-simulator.testing';
import { FetchHttpClient } from './testing/fetch-http-client.testing';
import { boardJobs, drain, expectNormalized, sameSecond } from './testing/posting-assertions.testing';

const adapter = new GreenhouseAdapter();
const sim = useBoardSimulator({
  seed: 11,
  jobsPerBoard: 30,
  families: [
    { kind: 'greenhouse', token: 'acme' },
    { kind: 'greenhouse', token: 'broken' },
    // A board whose jobs do not carry company_name: only the board endpoint names the employer.
    { kind: 'greenhouse', token: 'bare', company: 'Bare Metal Works', jobs: 5, jobCompanyName: false },
  ],
});

afterEach(() => sim().setKnobs({ boards: { 'greenhouse:broken': null } }));

describe('GreenhouseAdapter.validateConfig', () => {
  it('fills in the public API host and keeps the token', () => {
    expect(adapter.validateConfig({ board_token: ' acme ' })).toEqual({ base_url: GREENHOUSE_DEFAULT_BASE_URL, board_token: 'acme', company_name: null });
    expect(adapter.validateConfig({ kind: 'greenhouse', board_token: 'acme', base_url: 'http://127.0.0.1:9/gh/', company_name: ' Acme Rockets ' })).toEqual({
      base_url: 'http://127.0.0.1:9/gh',
      board_token: 'acme',
      company_name: 'Acme Rockets',
    });
    expect(() => adapter.validateConfig({ board_token: 'acme', company_name: 7 })).toThrow(/company_name must be a string/);
  });

  it('names every bad field, its value and the rule', () => {
    let error: unknown;
    try {
      adapter.validateConfig({ board_token: 'a/b', base_url: 'ftp://x', boardToken: 'acme' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(SourceConfigError);
    const issues = (error as SourceConfigError).issues;
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'board_token', value: 'a/b', rule: expect.stringContaining('path segment') }),
        expect.objectContaining({ field: 'base_url', value: 'ftp://x', rule: expect.stringContaining('http(s) URL') }),
        expect.objectContaining({ field: 'boardToken', rule: expect.stringContaining('not a known field') }),
      ]),
    );
    expect((error as Error).message).toContain('board_token');
    expect(() => adapter.validateConfig({})).toThrow(/board_token is required/);
    expect(() => adapter.validateConfig('acme')).toThrow(SourceConfigError);
  });
});

describe('GreenhouseAdapter.discover', () => {
  it('returns every posting of the board with normalized fields', async () => {
    const http = new FetchHttpClient();
    const config = adapter.validateConfig({ board_token: 'acme', base_url: sim().url });
    const postings = await collect(adapter.discover(config, { http }));
    const truth = boardJobs(sim(), 'greenhouse:acme');

    expect(http.requests).toEqual([`${sim().url}/v1/boards/acme/jobs?content=true&pay_transparency=true`]);
    expect(postings.map((p) => p.externalId)).toEqual(truth.map((j) => j.nativeId));
    postings.forEach((p, i) => {
      const job = truth[i];
      expectNormalized(p);
      expect(p).toEqual(
        expect.objectContaining({ sourceKind: 'greenhouse', title: job.title, company: job.company, url: job.url, salaryText: job.salary, applyUrl: null }),
      );
      expect(sameSecond(p.postedAt, job.postedAt)).toBe(true);
      expect(p.location).toEqual(expect.any(String));
      expect(p.remote).toBe(job.remote ? true : null);
      // content arrives escaped twice over; the adapter returns real HTML and readable text.
      expect(p.descriptionHtml?.startsWith('<p><strong>About us</strong></p>')).toBe(true);
      expect(p.descriptionText).toMatch(/^About us\n\n.+\n\nThe role\n\n/);
      expect(p.descriptionText).toContain('What we are looking for\n\n- ');
      expect(p.tags.length).toBeGreaterThan(0);
      // Pay as published, with each field's path: the pay transparency ranges and the salary field.
      const pay = job.salaryRange;
      expect(p.compensation).toEqual(
        pay
          ? [
              { fieldPath: 'greenhouse.pay_input_ranges', value: [expect.objectContaining({ min_cents: pay.min * 100, max_cents: pay.max * 100, currency_type: pay.currency })] },
              { fieldPath: 'greenhouse.metadata.Salary Range', value: job.salary },
            ]
          : [],
      );
    });
    expect(postings.some((p) => p.compensation?.length)).toBe(true);
  });

  it("names jobs without company_name after the board endpoint's name (asked once), never the token", async () => {
    const http = new FetchHttpClient();
    const postings = await collect(adapter.discover(adapter.validateConfig({ board_token: 'bare', base_url: sim().url }), { http }));
    expect(http.requests).toEqual([`${sim().url}/v1/boards/bare/jobs?content=true&pay_transparency=true`, `${sim().url}/v1/boards/bare`]);
    expect(postings).toHaveLength(5);
    for (const p of postings) expect(p.company).toBe('Bare Metal Works');
  });

  it('uses the configured company_name over the board\'s own name, without asking the board endpoint', async () => {
    for (const token of ['acme', 'bare']) {
      const http = new FetchHttpClient();
      const postings = await collect(adapter.discover(adapter.validateConfig({ board_token: token, base_url: sim().url, company_name: 'Acme Rockets' }), { http }));
      expect(http.requests).toEqual([`${sim().url}/v1/boards/${token}/jobs?content=true&pay_transparency=true`]);
      expect(postings.length).toBeGreaterThan(0);
      for (const p of postings) expect(p.company).toBe('Acme Rockets');
    }
  });

  it('falls back to the token only when neither the jobs nor the board endpoint name the employer', async () => {
    const stub = (board: unknown): HttpClient => ({
      getJson: async (url: string) => (url.endsWith('/jobs?content=true&pay_transparency=true') ? { jobs: [{ id: 1, title: 'Engineer', absolute_url: 'https://x.test/1' }] } : board) as never,
      getText: async () => '',
    });
    const config = adapter.validateConfig({ board_token: 'acme' });
    expect((await collect(adapter.discover(config, { http: stub({ name: null, content: null }) })))[0].company).toBe('acme');
    expect((await collect(adapter.discover(config, { http: stub({ name: 'Acme Rockets' }) })))[0].company).toBe('Acme Rockets');
    // A board name that cannot be read (#27) leaves the token, marked for the page's employer, not a failed board.
    const malformed = await collect(adapter.discover(config, { http: stub({ name: 42 }) }));
    expect(malformed[0]).toMatchObject({ company: 'acme', companyFromToken: true });
  });

  it('fails the board with MalformedResponseError on malformed JSON, naming the URL', async () => {
    sim().setKnobs({ boards: { 'greenhouse:broken': { malformedJson: true } } });
    const config = adapter.validateConfig({ board_token: 'broken', base_url: sim().url });
    const { items, error } = await drain(adapter.discover(config, { http: new FetchHttpClient() }));
    expect(items).toEqual([]);
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(error).toMatchObject({ url: `${sim().url}/v1/boards/broken/jobs?content=true&pay_transparency=true`, reason: expect.stringContaining('not valid JSON') });
  });

  it('fails with MalformedResponseError when the body is cut short', async () => {
    sim().setKnobs({ boards: { 'greenhouse:broken': { truncatedBody: true } } });
    const config = adapter.validateConfig({ board_token: 'broken', base_url: sim().url });
    const { items, error } = await drain(adapter.discover(config, { http: new FetchHttpClient() }));
    expect(items).toEqual([]);
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect((error as MalformedResponseError).url).toContain('/v1/boards/broken/jobs');
  });

  it('rejects a response of the wrong shape, saying which field is wrong', async () => {
    const stub = (body: unknown): HttpClient => ({ getJson: async () => body as never, getText: async () => JSON.stringify(body) });
    const config = adapter.validateConfig({ board_token: 'acme' });
    const missingTitle = await drain(adapter.discover(config, { http: stub({ jobs: [{ id: 1, absolute_url: 'https://x.test/1' }] }) }));
    expect(missingTitle.error).toBeInstanceOf(MalformedResponseError);
    expect((missingTitle.error as Error).message).toContain('jobs[0].title must be a non-empty string (got undefined)');
    const notAList = await drain(adapter.discover(config, { http: stub({ jobs: 'none' }) }));
    expect((notAList.error as Error).message).toContain('body.jobs must be an array');
    const job = { id: 1, title: 'Engineer', absolute_url: 'https://x.test/1' };
    const badPay = await drain(adapter.discover(config, { http: stub({ jobs: [{ ...job, pay_input_ranges: [{ min_cents: 1 }, 'lots'] }] }) }));
    expect((badPay.error as Error).message).toContain('jobs[0].pay_input_ranges[1] must be an object');
  });

  it('does not start when the signal is already aborted', async () => {
    const http = new FetchHttpClient();
    const controller = new AbortController();
    controller.abort();
    const config = adapter.validateConfig({ board_token: 'acme', base_url: sim().url });
    const { error } = await drain(adapter.discover(config, { http, signal: controller.signal }));
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(http.requests).toEqual([]);
  });
});
