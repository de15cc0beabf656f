import { LEVER_DEFAULT_BASE_URL, LeverAdapter } from './lever.adapter';
import { type HttpClient, MalformedResponseError, SourceConfigError } from './source-adapter.model';
import { collect, useBoardSimulator } from './testing/board-simulator.testing';
import { FetchHttpClient } from './testing/fetch-http-client.testing';
import { boardJobs, drain, expectNormalized } from './testing/posting-assertions.testing';

const adapter = new LeverAdapter();
// The server caps pages at 8, below the 100 the adapter asks for: a short page is not the end.
const sim = useBoardSimulator({ seed: 12, jobsPerBoard: 30, families: [{ kind: 'lever', token: 'globex' }], knobs: { pageSize: 8 } });

afterEach(() => sim().setKnobs({ boards: { 'lever:globex': null } }));

describe('LeverAdapter.validateConfig', () => {
  it('requires site and defaults base_url to the public API', () => {
    expect(adapter.validateConfig({ site: 'globex' })).toEqual({ base_url: LEVER_DEFAULT_BASE_URL, site: 'globex', company_name: null });
    expect(adapter.validateConfig({ site: 'globex', company_name: 'Globex Partners' })).toMatchObject({ company_name: 'Globex Partners' });
    expect(() => adapter.validateConfig({ site: '' })).toThrow(SourceConfigError);
    try {
      adapter.validateConfig({ site: 'has space', base_url: 'http://x.test/?a=1' });
    } catch (err) {
      expect((err as SourceConfigError).issues.map((i) => i.field).sort()).toEqual(['base_url', 'site']);
    }
    expect.assertions(4);
  });
});

describe('LeverAdapter.discover', () => {
  it('pages with skip/limit until an empty page and returns every posting, normalized', async () => {
    const http = new FetchHttpClient();
    const postings = await collect(adapter.discover(adapter.validateConfig({ site: 'globex', base_url: sim().url }), { http }));
    const truth = boardJobs(sim(), 'lever:globex');

    expect(http.requests.map((u) => new URL(u).searchParams.get('skip'))).toEqual(['0', '8', '16', '24', '30']);
    expect(http.requests.every((u) => new URL(u).searchParams.get('limit') === '100')).toBe(true);
    expect(postings.map((p) => p.externalId)).toEqual(truth.map((j) => j.nativeId));
    postings.forEach((p, i) => {
      const job = truth[i];
      expectNormalized(p);
      expect(p).toEqual(expect.objectContaining({ sourceKind: 'lever', title: job.title, company: 'globex', url: job.url, applyUrl: `${job.url}/apply` }));
      expect(p.postedAt).toBe(job.postedAt);
      expect(p.location).toBe(job.location);
      expect(p.remote).toBe(job.remote);
      expect(p.employmentType).toMatch(/^(FULL_TIME|PART_TIME|CONTRACTOR|INTERN|TEMPORARY)$/);
      // Opening, lists and "additional" are joined into one description.
      expect(p.descriptionText).toContain('What we are looking for\n\n- ');
      expect(p.descriptionHtml).toContain('<h3>What you will do</h3><ul><li>');
      if (job.salary) {
        expect(p.salaryText).toMatch(/^(USD|EUR|GBP|CAD|CHF) [\d,]+ - [\d,]+ per (year|hour)$/);
      } else {
        expect(p.salaryText).toBeNull();
      }
      // The range as published and the employer's own sentence, each under its field.
      const pay = job.salaryRange;
      expect(p.compensation).toEqual(
        pay
          ? [
              { fieldPath: 'lever.salaryRange', value: { currency: pay.currency, interval: pay.period === 'hour' ? 'per-hour-wage' : 'per-year-salary', min: pay.min, max: pay.max } },
              { fieldPath: 'lever.salaryDescription', value: `The salary range for this role is ${job.salary}.` },
            ]
          : [],
      );
    });
  });

  it('names every posting after the configured company_name (the postings API names no company)', async () => {
    const config = adapter.validateConfig({ site: 'globex', base_url: sim().url, company_name: 'Globex Partners' });
    const postings = await collect(adapter.discover(config, { http: new FetchHttpClient() }));
    expect(postings).toHaveLength(30);
    for (const p of postings) expect(p.company).toBe('Globex Partners');
  });

  it('asks for ctx.pageSize per page', async () => {
    const http = new FetchHttpClient();
    const postings = await collect(adapter.discover(adapter.validateConfig({ site: 'globex', base_url: sim().url }), { http, pageSize: 5 }));
    expect(postings).toHaveLength(30);
    expect(http.requests).toHaveLength(7);
    expect(new URL(http.requests[0]).searchParams.get('limit')).toBe('5');
  });

  it('stops between pages when the signal is aborted', async () => {
    const http = new FetchHttpClient();
    const controller = new AbortController();
    const seen: string[] = [];
    const run = async () => {
      for await (const p of adapter.discover(adapter.validateConfig({ site: 'globex', base_url: sim().url }), { http, signal: controller.signal })) {
        seen.push(p.externalId);
        controller.abort();
      }
    };
    await expect(run()).rejects.toMatchObject({ name: 'AbortError' });
    expect(http.requests).toHaveLength(1);
    expect(seen).toHaveLength(8); // the page already read is delivered, no further page is requested
  });

  it('fails with MalformedResponseError on malformed JSON and on a truncated body', async () => {
    const config = adapter.validateConfig({ site: 'globex', base_url: sim().url });
    sim().setKnobs({ boards: { 'lever:globex': { malformedJson: true } } });
    const malformed = await drain(adapter.discover(config, { http: new FetchHttpClient() }));
    expect(malformed.error).toBeInstanceOf(MalformedResponseError);
    expect((malformed.error as MalformedResponseError).url).toBe(`${sim().url}/v0/postings/globex?mode=json&skip=0&limit=100`);

    sim().setKnobs({ boards: { 'lever:globex': { malformedJson: false, truncatedBody: true } } });
    const truncated = await drain(adapter.discover(config, { http: new FetchHttpClient() }));
    expect(truncated.error).toBeInstanceOf(MalformedResponseError);
    expect(truncated.items).toEqual([]);
  });

  it('stops instead of looping when a server ignores skip', async () => {
    const page = [{ id: 'a', text: 'Engineer', hostedUrl: 'https://x.test/a' }];
    const requests: string[] = [];
    const http: HttpClient = {
      getJson: async (url: string) => {
        requests.push(url);
        return page as never;
      },
      getText: async () => '',
    };
    const postings = await collect(adapter.discover(adapter.validateConfig({ site: 'x' }), { http }));
    expect(postings.map((p) => p.externalId)).toEqual(['a']);
    expect(requests).toHaveLength(2);
  });

  it('reads the salary description from its HTML when no plain text is given, and rejects a salaryRange that is not an object', async () => {
    const posting = { id: 'p1', text: 'Engineer', hostedUrl: 'https://x.test/p1' };
    const stub = (p: unknown): HttpClient => ({ getJson: async (url: string) => (url.includes('skip=0') ? [p] : []) as never, getText: async () => '' });
    const [html] = await collect(adapter.discover(adapter.validateConfig({ site: 's' }), { http: stub({ ...posting, salaryDescription: '<div>Pay: <b>$90k</b> – $110k</div>' }) }));
    expect(html.compensation).toEqual([{ fieldPath: 'lever.salaryDescription', value: 'Pay: $90k – $110k' }]);
    const bad = await drain(adapter.discover(adapter.validateConfig({ site: 's' }), { http: stub({ ...posting, salaryRange: '90-110k' }) }));
    expect(bad.error).toBeInstanceOf(MalformedResponseError);
    expect((bad.error as Error).message).toContain('[0].salaryRange must be an object');
  });

  it('reports a non-array body as malformed', async () => {
    const http: HttpClient = { getJson: async () => ({ ok: false }) as never, getText: async () => '' };
    const { error } = await drain(adapter.discover(adapter.validateConfig({ site: 'x' }), { http }));
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect((error as Error).message).toContain('body must be an array (got an object)');
  });
});
