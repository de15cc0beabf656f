import { AshbyAdapter } from './ashby.adapter';
import { type HttpClient, MalformedResponseError, SourceConfigError } from './source-adapter.model';
import { collect, useBoardSimulator } from './testing/board-simulator.testing';
import { FetchHttpClient } from './testing/fetch-http-client.testing';
import { boardJobs, drain, expectNormalized } from './testing/posting-assertions.testing';

const adapter = new AshbyAdapter();
const sim = useBoardSimulator({ seed: 13, jobsPerBoard: 25, families: [{ kind: 'ashby', token: 'initech' }] });

afterEach(() => sim().setKnobs({ boards: { 'ashby:initech': null } }));

describe('AshbyAdapter', () => {
  it('validates board and base_url', () => {
    expect(adapter.validateConfig({ board: 'initech' }).base_url).toBe('https://api.ashbyhq.com');
    expect(() => adapter.validateConfig({ board: 'initech', base_url: 42 })).toThrow(/base_url must be an absolute http\(s\) URL/);
    expect(() => adapter.validateConfig({ bord: 'initech' })).toThrow(SourceConfigError);
    expect(adapter.validateConfig({ board: 'initech' }).company_name).toBeNull();
  });

  it('names every posting after the configured company_name (the posting API names no company)', async () => {
    const config = adapter.validateConfig({ board: 'initech', base_url: sim().url, company_name: 'Initech Systems' });
    const postings = await collect(adapter.discover(config, { http: new FetchHttpClient() }));
    expect(postings.length).toBeGreaterThan(0);
    for (const p of postings) expect(p.company).toBe('Initech Systems');
  });

  it('returns every posting with normalized fields and the published pay summary', async () => {
    const http = new FetchHttpClient();
    const postings = await collect(adapter.discover(adapter.validateConfig({ board: 'initech', base_url: sim().url }), { http }));
    const truth = boardJobs(sim(), 'ashby:initech');
    expect(http.requests).toEqual([`${sim().url}/posting-api/job-board/initech?includeCompensation=true`]);
    expect(postings.map((p) => p.externalId)).toEqual(truth.map((j) => j.nativeId));
    postings.forEach((p, i) => {
      const job = truth[i];
      expectNormalized(p);
      expect(p).toEqual(expect.objectContaining({ sourceKind: 'ashby', title: job.title, company: 'initech', url: job.url, remote: job.remote, postedAt: job.postedAt }));
      expect(p.descriptionText).toContain('What we are looking for');
      expect(p.employmentType).toMatch(/^(FULL_TIME|PART_TIME|CONTRACTOR|INTERN|TEMPORARY)$/);
      if (job.salary) expect(p.salaryText).toMatch(/\d+K - .*\d+K|per hour/);
      else expect(p.salaryText).toBeNull();
      // The whole compensation object as published (tiers, summary components): the compensation lib reads it.
      const pay = job.salaryRange;
      expect(p.compensation).toEqual([
        {
          fieldPath: 'ashby.compensation',
          value: expect.objectContaining({
            summaryComponents: pay ? [expect.objectContaining({ minValue: pay.min, maxValue: pay.max, currencyCode: pay.currency })] : [],
          }),
        },
      ]);
    });
  });

  it('skips unlisted postings and fails clearly on a bad field', async () => {
    const stub = (jobs: unknown[]): HttpClient => ({ getJson: async () => ({ apiVersion: '1', jobs }) as never, getText: async () => '' });
    const job = { id: 'x1', title: 'Designer', jobUrl: 'https://jobs.test/x1', isListed: true };
    const listed = await collect(adapter.discover(adapter.validateConfig({ board: 'b' }), { http: stub([job, { ...job, id: 'x2', isListed: false }]) }));
    expect(listed.map((p) => p.externalId)).toEqual(['x1']);
    const bad = await drain(adapter.discover(adapter.validateConfig({ board: 'b' }), { http: stub([{ ...job, isRemote: 'yes' }]) }));
    expect(bad.error).toBeInstanceOf(MalformedResponseError);
    expect((bad.error as Error).message).toContain('jobs[0].isRemote must be a boolean');
    const badPay = await drain(adapter.discover(adapter.validateConfig({ board: 'b' }), { http: stub([{ ...job, compensation: '$100k' }]) }));
    expect((badPay.error as Error).message).toContain('jobs[0].compensation must be an object');
  });

  it('fails with MalformedResponseError on malformed JSON', async () => {
    sim().setKnobs({ boards: { 'ashby:initech': { malformedJson: true } } });
    const { error } = await drain(adapter.discover(adapter.validateConfig({ board: 'initech', base_url: sim().url }), { http: new FetchHttpClient() }));
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect((error as MalformedResponseError).url).toContain('/posting-api/job-board/initech');
  });
});
