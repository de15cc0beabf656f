import { SmartRecruitersAdapter } from './smartrecruiters.adapter';
import { type HttpClient, MalformedResponseError } from './source-adapter.model';
import { collect, useBoardSimulator } from './testing/board-simulator.testing';
import { FetchHttpClient, HttpStatusError } from './testing/fetch-http-client.testing';
import { boardJobs, drain, expectNormalized } from './testing/posting-assertions.testing';

const adapter = new SmartRecruitersAdapter();
const sim = useBoardSimulator({ seed: 14, jobsPerBoard: 23, families: [{ kind: 'smartrecruiters', token: 'UmbrellaCorp' }], knobs: { pageSize: 10 } });

afterEach(() => sim().setKnobs({ boards: { 'smartrecruiters:UmbrellaCorp': null } }));

describe('SmartRecruitersAdapter', () => {
  it('validates company_id', () => {
    expect(adapter.validateConfig({ company_id: 'UmbrellaCorp' })).toEqual({ base_url: 'https://api.smartrecruiters.com', company_id: 'UmbrellaCorp', company_name: null });
    expect(() => adapter.validateConfig({ company_id: 7 })).toThrow(/company_id must be a non-empty path segment \(.*\) \(got 7\)/);
  });

  it('pages with offset/limit, reads each detail, and returns every posting normalized', async () => {
    const http = new FetchHttpClient();
    const postings = await collect(adapter.discover(adapter.validateConfig({ company_id: 'UmbrellaCorp', base_url: sim().url }), { http }));
    const truth = boardJobs(sim(), 'smartrecruiters:UmbrellaCorp');
    const listRequests = http.requests.filter((u) => new URL(u).pathname.endsWith('/postings'));
    expect(listRequests.map((u) => new URL(u).searchParams.get('offset'))).toEqual(['0', '10', '20']);
    expect(http.requests).toHaveLength(3 + 23);
    expect(postings.map((p) => p.externalId)).toEqual(truth.map((j) => j.nativeId));
    postings.forEach((p, i) => {
      const job = truth[i];
      expectNormalized(p);
      expect(p).toEqual(
        expect.objectContaining({ sourceKind: 'smartrecruiters', title: job.title, company: job.company, url: job.url, applyUrl: `${job.url}/apply`, postedAt: job.postedAt, remote: job.remote }),
      );
      expect(p.location).toContain(job.location.split(',')[0]);
      expect(p.descriptionHtml).toContain('<h3>Qualifications</h3>');
      expect(p.descriptionText).toContain('Company Description');
      expect(p.tags.length).toBeGreaterThan(0);
      // Pay comes with the posting's detail.
      const pay = job.salaryRange;
      expect(p.compensation).toEqual(
        pay ? [{ fieldPath: 'smartrecruiters.compensation', value: { min: pay.min, max: pay.max, currency: pay.currency, period: pay.period === 'hour' ? 'HOURLY' : 'YEARLY' } }] : [],
      );
    });
    expect(postings.some((p) => p.compensation?.length)).toBe(true);
  });

  it('keeps a compensation text as published, and rejects one of another type', async () => {
    const stub = (compensation: unknown): HttpClient => ({
      getJson: async (url: string) =>
        (url.includes('?') ? { totalFound: 1, content: [{ id: '7', name: 'Engineer' }] } : { postingUrl: 'https://x.test/7', compensation }) as never,
      getText: async () => '',
    });
    const [text] = await collect(adapter.discover(adapter.validateConfig({ company_id: 'c' }), { http: stub(' 55.000 - 65.000 EUR brutto ') }));
    expect(text.compensation).toEqual([{ fieldPath: 'smartrecruiters.compensation', value: '55.000 - 65.000 EUR brutto' }]);
    expect(text.salaryText).toBe('55.000 - 65.000 EUR brutto');
    const bad = await drain(adapter.discover(adapter.validateConfig({ company_id: 'c' }), { http: stub(60000) }));
    expect(bad.error).toBeInstanceOf(MalformedResponseError);
    expect((bad.error as Error).message).toContain('body.compensation must be an object or a string');
  });

  it('reads a page’s details `internalConcurrency` at a time and still yields them in list order', async () => {
    sim().setKnobs({ boards: { 'smartrecruiters:UmbrellaCorp': { latencyMs: 40 } } });
    const config = adapter.validateConfig({ company_id: 'UmbrellaCorp', base_url: sim().url });
    sim().resetStats();
    const serial = await collect(adapter.discover(config, { http: new FetchHttpClient() }));
    expect(sim().stats().inFlightPeak).toBe(1);
    sim().resetStats();
    const parallel = await collect(adapter.discover(config, { http: new FetchHttpClient(), internalConcurrency: 4 }));
    expect(sim().stats().inFlightPeak).toBe(4);
    expect(parallel.map((p) => p.externalId)).toEqual(serial.map((p) => p.externalId));
  });

  it('stops between detail requests when aborted', async () => {
    const http = new FetchHttpClient();
    const controller = new AbortController();
    const seen: string[] = [];
    const run = async () => {
      for await (const p of adapter.discover(adapter.validateConfig({ company_id: 'UmbrellaCorp', base_url: sim().url }), { http, signal: controller.signal })) {
        seen.push(p.externalId);
        if (seen.length === 2) controller.abort();
      }
    };
    await expect(run()).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toHaveLength(2);
    expect(http.requests).toHaveLength(3); // one list page and two details
  });

  it('skips a posting whose detail is gone (404) but fails on other errors', async () => {
    const list = { offset: 0, limit: 100, totalFound: 2, content: [{ id: '1', name: 'A' }, { id: '2', name: 'B' }] };
    const detail = (id: string) => ({ id, name: id === '1' ? 'A' : 'B', postingUrl: `https://jobs.test/${id}`, company: { identifier: 'c', name: 'C' } });
    const client = (failure: Error): HttpClient => ({
      getJson: async (url: string) => {
        if (url.includes('?')) return list as never;
        if (url.endsWith('/1')) throw failure;
        return detail('2') as never;
      },
      getText: async () => '',
    });
    const gone = await collect(adapter.discover(adapter.validateConfig({ company_id: 'c' }), { http: client(new HttpStatusError('u', 404)) }));
    expect(gone.map((p) => p.externalId)).toEqual(['2']);
    const broken = await drain(adapter.discover(adapter.validateConfig({ company_id: 'c' }), { http: client(new HttpStatusError('u', 500)) }));
    expect(broken.error).toMatchObject({ status: 500 });
  });

  it('fails with MalformedResponseError on malformed JSON', async () => {
    sim().setKnobs({ boards: { 'smartrecruiters:UmbrellaCorp': { malformedJson: true } } });
    const { error } = await drain(adapter.discover(adapter.validateConfig({ company_id: 'UmbrellaCorp', base_url: sim().url }), { http: new FetchHttpClient() }));
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect((error as MalformedResponseError).url).toBe(`${sim().url}/v1/companies/UmbrellaCorp/postings?limit=100&offset=0`);
  });
});
