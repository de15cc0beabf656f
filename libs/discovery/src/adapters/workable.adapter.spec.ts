import { type HttpClient, MalformedResponseError } from './source-adapter.model';
import { collect, useBoardSimulator } from './testing/board-simulator.testing';
import { FetchHttpClient } from './testing/fetch-http-client.testing';
import { boardJobs, drain, expectNormalized } from './testing/posting-assertions.testing';
import { WorkableAdapter } from './workable.adapter';

const adapter = new WorkableAdapter();
const sim = useBoardSimulator({ seed: 15, jobsPerBoard: 20, families: [{ kind: 'workable', token: 'hooli', company: 'Hooli & Co' }] });

afterEach(() => sim().setKnobs({ boards: { 'workable:hooli': null } }));

describe('WorkableAdapter', () => {
  it('validates account', () => {
    expect(adapter.validateConfig({ account: 'hooli' })).toEqual({ base_url: 'https://apply.workable.com', account: 'hooli', company_name: null });
    expect(() => adapter.validateConfig({ account: 'hooli', extra: true })).toThrow(/extra is not a known field/);
  });

  it('returns every job with the account name as company and normalized fields', async () => {
    const http = new FetchHttpClient();
    const postings = await collect(adapter.discover(adapter.validateConfig({ account: 'hooli', base_url: sim().url }), { http }));
    const truth = boardJobs(sim(), 'workable:hooli');
    expect(http.requests).toEqual([`${sim().url}/api/v1/widget/accounts/hooli?details=true`]);
    expect(postings.map((p) => p.externalId)).toEqual(truth.map((j) => j.nativeId));
    postings.forEach((p, i) => {
      const job = truth[i];
      expectNormalized(p);
      expect(p).toEqual(expect.objectContaining({ sourceKind: 'workable', title: job.title, company: 'Hooli & Co', url: job.url, remote: job.remote }));
      expect(p.postedAt).toBe(`${job.postedAt.slice(0, 10)}T00:00:00.000Z`); // Workable publishes dates only
      expect(p.location).toContain(job.location.split(',')[0]);
      expect(p.descriptionText).toContain('What we are looking for');
      // `salary` as published: data for some jobs, the employer's text for others.
      const pay = job.salaryRange;
      if (!pay) expect(p.compensation).toEqual([]);
      else if (typeof p.compensation?.[0]?.value === 'string') expect(p.compensation).toEqual([{ fieldPath: 'workable.salary', value: job.salary }]);
      else expect(p.compensation).toEqual([{ fieldPath: 'workable.salary', value: { salary_from: pay.min, salary_to: pay.max, salary_currency: pay.currency } }]);
    });
    const forms = new Set(postings.flatMap((p) => p.compensation ?? []).map((s) => typeof s.value));
    expect([...forms].sort()).toEqual(['object', 'string']);
  });

  it('rejects a salary that is neither data nor text, naming the job', async () => {
    const job = { shortcode: 'AB1', title: 'Engineer', url: 'https://x.test/AB1' };
    const http: HttpClient = { getJson: async () => ({ jobs: [job, { ...job, shortcode: 'AB2', salary: [120000] }] }) as never, getText: async () => '' };
    const { error } = await drain(adapter.discover(adapter.validateConfig({ account: 'a' }), { http }));
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect((error as Error).message).toContain('jobs[1].salary must be an object or a string');
  });

  it('fails with MalformedResponseError on a truncated body', async () => {
    sim().setKnobs({ boards: { 'workable:hooli': { truncatedBody: true } } });
    const { error } = await drain(adapter.discover(adapter.validateConfig({ account: 'hooli', base_url: sim().url }), { http: new FetchHttpClient() }));
    expect(error).toBeInstanceOf(MalformedResponseError);
  });
});
